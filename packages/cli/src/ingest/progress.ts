// Progress on stderr: a bar on a terminal (cli-progress), plain lines every few seconds otherwise
// (CI logs, pipes), and nothing when quiet.
import cliProgress from "cli-progress";
import type { Counters } from "./run.ts";

export interface ProgressView {
  update(counters: Counters): void;
  stop(): void;
}

const COUNTS = "sent {sent} | accepted {accepted} | succeeded {succeeded} | failed {failed}";

export function plainLine(c: Counters): string {
  const percent = c.totalBytes > 0 ? Math.floor((100 * c.bytes) / c.totalBytes) : 100;
  return `progress: ${percent}% read, ${c.read} items, sent ${c.sent}, accepted ${c.accepted}, succeeded ${c.succeeded}, failed ${c.failed}`;
}

export function createProgressView(options: {
  stream: NodeJS.WritableStream & { isTTY?: boolean };
  mode: "bar" | "lines" | "none";
  intervalMs?: number;
}): ProgressView {
  if (options.mode === "none") return { update() {}, stop() {} };
  if (options.mode === "lines") {
    let latest: Counters | undefined;
    let printed: string | undefined;
    const print = () => {
      if (!latest) return;
      const line = plainLine(latest);
      if (line !== printed) options.stream.write(`${line}\n`);
      printed = line;
    };
    const timer = setInterval(print, options.intervalMs ?? 5000);
    timer.unref();
    return {
      update(counters) {
        latest = counters;
      },
      stop() {
        clearInterval(timer);
        print();
      },
    };
  }
  const bar = new cliProgress.SingleBar(
    {
      format: `{bar} {percentage}% of the file | ${COUNTS} | {eta_formatted}`,
      stream: options.stream,
      hideCursor: true,
      etaBuffer: 50,
      fps: 5,
    },
    cliProgress.Presets.shades_classic,
  );
  let started = false;
  return {
    update(c) {
      const payload = { sent: c.sent, accepted: c.accepted, succeeded: c.succeeded, failed: c.failed };
      if (!started) {
        bar.start(Math.max(c.totalBytes, 1), c.bytes, payload);
        started = true;
      } else bar.update(Math.min(c.bytes, c.totalBytes), payload);
    },
    stop() {
      if (started) bar.stop();
      started = false;
    },
  };
}
