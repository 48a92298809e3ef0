// CPU accounting from /proc (Linux): seconds of CPU a process used, and how busy the machine was.
import { readFileSync } from "node:fs";

const TICKS = 100; // USER_HZ on Linux

/** utime + stime of a process, in seconds. */
export function cpuSeconds(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(fields[11]) + Number(fields[12])) / TICKS;
  } catch {
    return Number.NaN;
  }
}

/** Machine-wide CPU time so far: busy and total, in seconds summed over all cores. */
export function machineCpu(): { busy: number; total: number } {
  const line = readFileSync("/proc/stat", "utf8").split("\n")[0] as string;
  const v = line.trim().split(/\s+/).slice(1).map(Number);
  const idle = (v[3] ?? 0) + (v[4] ?? 0);
  const total = v.reduce((a, b) => a + b, 0);
  return { busy: (total - idle) / TICKS, total: total / TICKS };
}

/** Starts counting; `stop()` gives each pid's CPU seconds and the machine's busy share. */
export function cpuMeter(pids: Record<string, number>) {
  const before = Object.fromEntries(Object.entries(pids).map(([k, pid]) => [k, cpuSeconds(pid)]));
  const m0 = machineCpu();
  return () => {
    const m1 = machineCpu();
    const perProcess = Object.fromEntries(
      Object.entries(pids).map(([k, pid]) => [k, cpuSeconds(pid) - (before[k] as number)]),
    );
    return { perProcess, machineBusyShare: (m1.busy - m0.busy) / (m1.total - m0.total) };
  };
}
