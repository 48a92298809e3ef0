// Short stages first inside one worker process (issue 30, decision 017). With a slot free, a quiet
// account's one-request stage shares no rows with a busy account's stages; what it waits for is the
// event loop and the CPUs those stages take between its ~9 statements (JSON of 1,000 changes, GC,
// socket writes, PostgreSQL running their big statements). While a short stage is in flight, a big
// stage waits at its next statement boundary instead of starting another heavy turn, at most
// MAX_WAIT_MS each time, so a stream of short stages cannot stall a busy account for long.

/** At most this long a big stage waits at one boundary (a short stage's apply is ~20–75 ms on the loaded machine). */
const MAX_WAIT_MS = 100;

export interface PriorityGate {
  /** A short stage starts: call the result when it has ended (committed or not). */
  enter(): () => void;
  /** For big stages: undefined when no short stage is in flight, otherwise when none is (or after MAX_WAIT_MS). */
  pass(): Promise<void> | undefined;
}

export function createPriorityGate(): PriorityGate {
  let inFlight = 0;
  let waiters: (() => void)[] = [];
  const open = () => {
    const ready = waiters;
    waiters = [];
    for (const resolve of ready) resolve();
  };
  return {
    enter() {
      inFlight += 1;
      let ended = false;
      return () => {
        if (ended) return;
        ended = true;
        inFlight -= 1;
        if (inFlight === 0) open();
      };
    },
    pass() {
      if (inFlight === 0) return undefined;
      return new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, MAX_WAIT_MS);
        waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    },
  };
}

/** A gate that never waits: yielding off, or PGlite (its one connection runs every stage in turn). */
export const OPEN_GATE: PriorityGate = { enter: () => () => {}, pass: () => undefined };
