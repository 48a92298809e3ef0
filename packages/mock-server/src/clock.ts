// The mock's clock: real time by default, movable (and freezable) by tests. Everything that waits
// in the mock (processing delays, retries, rate-limit windows, idempotency and retention windows,
// webhook retries) waits on this clock, so a test advances it instead of sleeping.

export interface ClockOptions {
  /** Where the clock starts (default: now). */
  start?: Date | string | number;
  /** A frozen clock moves only with `advance` / `set` (default false: it runs with real time). */
  frozen?: boolean;
}

export interface MockClock {
  /** Milliseconds since the epoch, on the mock's clock. */
  now(): number;
  /** Moves the clock forward and runs whatever became due. */
  advance(ms: number): void;
  /** Moves the clock to an instant (backwards too) and runs whatever became due. */
  set(to: Date | string | number): void;
  /** Stops the clock at its current instant (or the one given). */
  freeze(at?: Date | string | number): void;
  /** Lets the clock run with real time again, from where it is. */
  unfreeze(): void;
  readonly frozen: boolean;
}

interface Timer {
  due: number;
  run: () => void;
  handle: ReturnType<typeof setTimeout> | undefined;
}

const toMs = (value: Date | string | number): number => {
  const ms = value instanceof Date ? value.getTime() : typeof value === "string" ? Date.parse(value) : value;
  if (!Number.isFinite(ms)) throw new TypeError(`not a valid instant: ${String(value)}`);
  return ms;
};

/** A clock plus timers keyed to it. Real timers are only a wake-up; due-ness is decided by the clock. */
export class Clock implements MockClock {
  #offset = 0;
  #frozenAt: number | null = null;
  #timers = new Set<Timer>();
  readonly #options: ClockOptions;

  constructor(options: ClockOptions = {}) {
    this.#options = options;
    this.reset();
  }

  get frozen(): boolean {
    return this.#frozenAt !== null;
  }

  now(): number {
    return this.#frozenAt ?? Date.now() + this.#offset;
  }

  nowIso(): string {
    return new Date(this.now()).toISOString();
  }

  advance(ms: number): void {
    if (!Number.isFinite(ms) || ms < 0) throw new RangeError("advance(ms) takes a non-negative number");
    if (this.#frozenAt !== null) this.#frozenAt += ms;
    else this.#offset += ms;
    this.#rearm();
  }

  set(to: Date | string | number): void {
    const target = toMs(to);
    if (this.#frozenAt !== null) this.#frozenAt = target;
    else this.#offset = target - Date.now();
    this.#rearm();
  }

  freeze(at?: Date | string | number): void {
    this.#frozenAt = at === undefined ? this.now() : toMs(at);
    this.#rearm();
  }

  unfreeze(): void {
    if (this.#frozenAt === null) return;
    this.#offset = this.#frozenAt - Date.now();
    this.#frozenAt = null;
    this.#rearm();
  }

  /** Back to the configured start; cancels every timer. */
  reset(): void {
    this.cancelAll();
    const start = this.#options.start === undefined ? Date.now() : toMs(this.#options.start);
    this.#offset = start - Date.now();
    this.#frozenAt = this.#options.frozen ? start : null;
  }

  /** Runs `run` once the clock reaches `due` (never synchronously). Returns a cancel function. */
  at(due: number, run: () => void): () => void {
    const timer: Timer = { due, run, handle: undefined };
    this.#timers.add(timer);
    this.#arm(timer);
    return () => {
      if (timer.handle !== undefined) clearTimeout(timer.handle);
      this.#timers.delete(timer);
    };
  }

  cancelAll(): void {
    for (const timer of this.#timers) if (timer.handle !== undefined) clearTimeout(timer.handle);
    this.#timers.clear();
  }

  #arm(timer: Timer): void {
    if (timer.handle !== undefined) clearTimeout(timer.handle);
    timer.handle = undefined;
    const wait = timer.due - this.now();
    // A frozen clock never reaches a future instant by itself: only advance/set fire such timers.
    if (wait > 0 && this.#frozenAt !== null) return;
    timer.handle = setTimeout(
      () => {
        timer.handle = undefined;
        if (!this.#timers.has(timer)) return;
        if (this.now() < timer.due) return this.#arm(timer);
        this.#timers.delete(timer);
        timer.run();
      },
      Math.max(0, Math.min(wait, 2_147_000_000)),
    );
    // A far-off mock timer (a webhook retry hours away) must not keep a Node process alive.
    if (wait >= 1000) (timer.handle as { unref?: () => void }).unref?.();
  }

  #rearm(): void {
    for (const timer of this.#timers) this.#arm(timer);
  }
}
