// TEMPORARY instrumentation (not for commit): a per-stage timeline to a file named by OISR_TIMELINE.
import { appendFileSync } from "node:fs";
import { PerformanceObserver } from "node:perf_hooks";

const file = process.env.OISR_TIMELINE;
const buf: string[] = [];
export const tl = (ev: string, data: Record<string, unknown> = {}) => {
  if (!file) return;
  buf.push(JSON.stringify({ t: +(performance.timeOrigin + performance.now()).toFixed(2), ev, ...data }));
};
const flush = () => {
  if (file && buf.length) {
    appendFileSync(file, `${buf.join("\n")}\n`);
    buf.length = 0;
  }
};
if (file) {
  setInterval(flush, 500).unref();
  process.on("exit", flush);
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) if (e.duration > 5) tl("gc", { ms: +e.duration.toFixed(1) });
  }).observe({ entryTypes: ["gc"] });
  let last = performance.now();
  setInterval(() => {
    const now = performance.now();
    if (now - last > 25) tl("stall", { ms: +(now - last - 10).toFixed(1) });
    last = now;
  }, 10).unref();
}
