// One lane for the heavy synchronous steps of large bodies (checking, decoding, parsing and
// serialising a body of up to 5 MiB each take 20–100 ms of CPU here). Steps run one at a time across
// every call, each after a turn of the event loop, so whatever I/O is waiting (a /healthz probe, a
// small call) is served between two steps: the loop is never held for more than one step. Before
// the lane, four 4.8 MiB bodies whose last bytes arrived together were parsed back to back in one
// poll phase, and /healthz waited for all of them (issue 30: up to 3.1 s).
let tail: Promise<unknown> = Promise.resolve();

const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Runs `step` on the lane: after the steps queued before it, and after a turn of the event loop. */
export function onLane<T>(step: () => T): Promise<T> {
  const run = tail.then(turn).then(step);
  tail = run.catch(() => {});
  return run;
}
