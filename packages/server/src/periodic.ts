// A background pass on a timer (the retention pass, the embedded database's vacuum): never two at
// once (a pass still running when the next is due skips that turn), the timer does not keep the
// process alive, and stop() waits for the pass in progress. A pass reports its own errors.
export interface Periodic {
  stop(): Promise<void>;
}

export function startPeriodic(everyMs: number, pass: () => Promise<void>): Periodic {
  let running: Promise<void> | undefined;
  const timer = setInterval(() => {
    if (running) return;
    running = pass().finally(() => {
      running = undefined;
    });
  }, everyMs);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
