// CPU accounting from /proc (Linux): seconds of CPU a process used, and how busy the machine was.
import { readFileSync } from "node:fs";
import { availableParallelism } from "node:os";

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

/**
 * CPU used during a run by the named server processes, by the PostgreSQL backends serving this
 * database, by this benchmark process, and by everything else on the machine (other work sharing
 * it), each in cores (CPU seconds per wall second).
 */
export async function runMeter(databaseUrl: string, pids: Record<string, number>) {
  const { default: postgres } = await import("postgres");
  const sql = postgres(databaseUrl, { max: 1, onnotice: () => {} });
  const backends = async () =>
    (
      await sql<{ pid: number }[]>`select pid from pg_stat_activity
        where datname = current_database() and pid <> pg_backend_pid()`
    ).map((r) => r.pid);
  const startBackends = new Map((await backends()).map((pid) => [pid, cpuSeconds(pid)]));
  const named = cpuMeter({ ...pids, bench: process.pid });
  const t0 = performance.now();
  return async () => {
    const used = named();
    const seconds = (performance.now() - t0) / 1000;
    let pg = 0;
    for (const pid of new Set([...startBackends.keys(), ...(await backends())])) {
      const now = cpuSeconds(pid);
      if (!Number.isNaN(now)) pg += now - (startBackends.get(pid) ?? 0);
    }
    await sql.end();
    const cores = Object.fromEntries(Object.entries(used.perProcess).map(([k, v]) => [k, v / seconds]));
    const ours = Object.values(cores).reduce((a, b) => a + b, 0) + pg / seconds;
    const machine = used.machineBusyShare * availableParallelism();
    return { cores, postgres: pg / seconds, machine, others: Math.max(0, machine - ours) };
  };
}

export function meterText(m: Awaited<ReturnType<Awaited<ReturnType<typeof runMeter>>>>): string {
  const f = (x: number) => x.toFixed(2);
  return `${Object.entries(m.cores)
    .map(([k, v]) => `${k} ${f(v)}`)
    .join(
      ", ",
    )}, PostgreSQL ${f(m.postgres)}; other work on the machine ${f(m.others)} (machine ${f(m.machine)} of ${availableParallelism()})`;
}
