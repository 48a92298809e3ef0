// Progress on stderr: a bar on a terminal, plain lines every few seconds otherwise (CI logs, pipes),
// and nothing when quiet.
//
// The bar is one line redrawn in place (carriage return, then erase to the end of the line). It
// never moves the cursor elsewhere, so whatever is printed after stop() (the summary) stays where
// it is: nothing redraws over it. Messages printed while it runs (the Ctrl-C notice) go through
// note(), which clears the bar, prints the message and draws the bar again below it.
import type { Counters } from "./run.ts";

export interface ProgressView {
  update(counters: Counters): void;
  /**
   * The run was interrupted: from now on the time reads "interrupted", never an estimate of the
   * time left (the run will not get there).
   */
  interrupted(): void;
  /** Prints a line of its own (above the bar, if there is one). */
  note(text: string): void;
  /**
   * Draws the final state once and leaves the cursor on a new line (`clear`: erases the bar
   * instead, for a run that got nowhere); later updates are ignored.
   */
  stop(options?: { clear?: boolean }): void;
}

type Stream = NodeJS.WritableStream & { isTTY?: boolean; columns?: number };

/** "4.2 s", "1 min 05 s", "2 h 03 min": how long the run has taken. */
export function formatDuration(ms: number): string {
  const seconds = ms / 1000;
  if (seconds < 60) return `${seconds.toFixed(1)} s`;
  const whole = Math.round(seconds);
  const minutes = Math.floor(whole / 60);
  if (minutes < 60) return `${minutes} min ${String(whole % 60).padStart(2, "0")} s`;
  return `${Math.floor(minutes / 60)} h ${String(minutes % 60).padStart(2, "0")} min`;
}

function percentOf(c: Counters): number {
  return c.totalBytes > 0 ? Math.min(100, Math.floor((100 * c.bytes) / c.totalBytes)) : 100;
}

function counts(c: Counters): string {
  const stale = c.stale > 0 ? ` | stale ${c.stale}` : "";
  return `sent ${c.sent} | accepted ${c.accepted} | succeeded ${c.succeeded}${stale} | failed ${c.failed}`;
}

/** "elapsed 44 s, about 40 s left": the time on the bar, labelled ("interrupted" once it is). */
function timing(c: Counters, elapsedMs: number, interrupted = false): string {
  const elapsed = `elapsed ${formatDuration(elapsedMs)}`;
  if (interrupted) return `${elapsed}, interrupted`;
  const done = c.totalBytes > 0 ? c.bytes / c.totalBytes : 1;
  if (done <= 0.02 || done >= 1 || elapsedMs < 3000) return elapsed;
  return `${elapsed}, about ${formatDuration((elapsedMs * (1 - done)) / done)} left`;
}

export function plainLine(c: Counters, elapsedMs?: number, interrupted = false): string {
  const time = elapsedMs === undefined ? "" : `, ${timing(c, elapsedMs, interrupted)}`;
  const stale = c.stale > 0 ? `, stale ${c.stale}` : "";
  return `progress: ${percentOf(c)}% read, ${c.read} items, sent ${c.sent}, accepted ${c.accepted}, succeeded ${c.succeeded}${stale}, failed ${c.failed}${time}`;
}

/** The bar line, fitted to `columns` (a wrapped line could not be redrawn in place). */
export function barLine(c: Counters, elapsedMs: number, columns = 80, interrupted = false): string {
  const percent = percentOf(c);
  const text = ` ${String(percent).padStart(3)}% of the file | ${counts(c)} | ${timing(c, elapsedMs, interrupted)}`;
  const width = Math.max(10, Math.min(40, columns - 1 - text.length));
  const filled = Math.round((width * percent) / 100);
  const line = `${"█".repeat(filled)}${"░".repeat(width - filled)}${text}`;
  return line.length < columns ? line : `${line.slice(0, Math.max(0, columns - 2))}…`;
}

export function createProgressView(options: {
  stream: Stream;
  mode: "bar" | "lines" | "none";
  intervalMs?: number;
  /** For tests: the clock elapsed times are read from. */
  now?: () => number;
}): ProgressView {
  const { stream } = options;
  const now = options.now ?? (() => performance.now());
  const started = now();
  let stopped = false;
  let interrupted = false;

  if (options.mode === "none") {
    return {
      update() {},
      interrupted() {},
      note(text) {
        stream.write(`${text}\n`);
      },
      stop() {},
    };
  }

  if (options.mode === "lines") {
    let latest: Counters | undefined;
    let printed: string | undefined;
    const print = () => {
      if (!latest) return;
      const line = plainLine(latest);
      if (line !== printed) stream.write(`${plainLine(latest, now() - started, interrupted)}\n`);
      printed = line;
    };
    const timer = setInterval(print, options.intervalMs ?? 5000);
    timer.unref();
    return {
      update(counters) {
        if (!stopped) latest = counters;
      },
      interrupted() {
        interrupted = true;
        // The last line printed may estimate a time left: the final one must not.
        printed = undefined;
      },
      note(text) {
        stream.write(`${text}\n`);
      },
      stop(stopOptions) {
        if (stopped) return;
        stopped = true;
        clearInterval(timer);
        if (!stopOptions?.clear) print();
      },
    };
  }

  // A bar: drawn on the first update, then redrawn every 200 ms (counts and elapsed time).
  let latest: Counters | undefined;
  let drawn = false;
  const draw = () => {
    if (!latest) return;
    stream.write(`\r${barLine(latest, now() - started, stream.columns || 80, interrupted)}\x1b[K`);
    drawn = true;
  };
  const clear = () => {
    if (drawn) stream.write("\r\x1b[K");
    drawn = false;
  };
  const timer = setInterval(draw, options.intervalMs ?? 200);
  timer.unref();
  return {
    update(counters) {
      if (stopped) return;
      const first = latest === undefined;
      latest = counters;
      if (first) draw();
    },
    interrupted() {
      interrupted = true;
    },
    note(text) {
      clear();
      stream.write(`${text}\n`);
      if (!stopped) draw();
    },
    stop(stopOptions) {
      if (stopped) return;
      stopped = true;
      clearInterval(timer);
      if (stopOptions?.clear) clear();
      else if (latest) {
        draw();
        stream.write("\n");
      }
      drawn = false;
    },
  };
}
