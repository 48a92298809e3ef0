// The growth benchmark's report (bench/growth.ts): what one filled history measured, and the
// tables comparing the large history against the small one of the same run.
import type { RetentionRun } from "./growth-retention.ts";
import { fmt, printBlock, printTable, type Row, type spread } from "./report.ts";

/** What bench/growth.ts measures on one filled history. */
export interface Figures {
  total: number;
  accounts: number;
  fillSeconds: number;
  bytes: Record<string, { bytes: number; rows: number }>;
  reads: Record<string, ReturnType<typeof spread>>;
  ackPerSecond: number;
  ackP99: number;
  ackDuringRetentionP99: number;
  /** The same load while the same pass runs again with nothing left to drop: what running a pass at all costs. */
  ackDuringIdlePassP99: number;
  drainSeconds: number | null;
  /** WAL bytes per one-order request, accepted and applied (drain step). */
  walPerRequest: number;
  retention: RetentionRun;
  retentionUnderLoad: RetentionRun;
  partitioned: boolean;
  /** Load average (1, 5, 15 min) when this side's measuring ended. */
  load: string;
}

/** The run's settings the tables name. */
export interface Settings {
  seconds: number;
  drain: number;
  liveAccounts: number;
  limit: number;
  perAccount: number;
}

const rowsText = (r: RetentionRun) =>
  r.rowsBefore === null || r.rowsAfter === null
    ? " (rows not counted: timed under load)"
    : ` (rows ${fmt(r.rowsBefore)} → ${fmt(r.rowsAfter)})`;

/** Prints the large history's figures against the small one's, with the goals of issue 26. */
export function printResults(
  small: Figures,
  large: Figures,
  { seconds, drain, liveAccounts, limit, perAccount }: Settings,
) {
  const n = (f: Figures) => fmt(f.total);
  const r2 = (x: number) => `${x.toFixed(2)}×`;
  const rows: Row[] = [];
  const slower = (figure: string, big: number, base: number, unit: string, digits = 2) =>
    rows.push({
      figure,
      value: `${fmt(big, digits)} ${unit}`,
      baseline: `${fmt(base, digits)} ${unit}`,
      ratio: r2(big / base),
      goal: "≤ 1.20×",
    });
  rows.push({
    figure: `accept: POST /ingest/orders acknowledged per second (${seconds} s, 50 connections); ratio = ${n(small)} / ${n(large)}`,
    value: fmt(large.ackPerSecond),
    baseline: fmt(small.ackPerSecond),
    ratio: r2(small.ackPerSecond / large.ackPerSecond),
    goal: "≤ 1.20×",
  });
  slower(`accept p99, ms`, large.ackP99, small.ackP99, "ms", 0);
  rows.push({
    figure: `drain of ${fmt(drain)} one-order requests from ${liveAccounts} accounts, one worker process, s`,
    value: large.drainSeconds === null ? "not drained in 600 s" : fmt(large.drainSeconds, 1),
    baseline: small.drainSeconds === null ? "not drained" : fmt(small.drainSeconds, 1),
    ratio: large.drainSeconds && small.drainSeconds ? r2(large.drainSeconds / small.drainSeconds) : "—",
    goal: "≤ 1.20×",
  });
  for (const key of Object.keys(large.reads)) {
    const a = large.reads[key] as ReturnType<typeof spread>;
    const b = small.reads[key] as ReturnType<typeof spread>;
    slower(`${key}${key.includes("page") ? ` (limit ${limit})` : ""}, p50 ms`, a.p50, b.p50, "ms");
    slower(`${key}, p99 ms`, a.p99, b.p99, "ms");
  }
  for (const [label, pick] of [
    ["retention pass (30 days)", (f: Figures) => f.retention],
    ["retention pass under ingest load (29 days)", (f: Figures) => f.retentionUnderLoad],
  ] as const) {
    const a = pick(large);
    const b = pick(small);
    rows.push({
      figure: `${label}: ${a.how}, duration ms${rowsText(a)}`,
      value: fmt(a.ms),
      baseline: `${fmt(b.ms)}${rowsText(b)}`,
      ratio: r2(a.ms / b.ms),
      goal: "≤ 1.20×",
    });
    if (a === large.retention)
      rows.push({
        figure: `${label}: WAL written, bytes (this database's records, pg_walinspect; in an idle interval as long: ${fmt(a.backgroundWalBytes)})`,
        value: fmt(a.walBytes),
        baseline: `${fmt(b.walBytes)} (idle: ${fmt(b.backgroundWalBytes)})`,
        goal: "≤ 1,048,576",
      });
    if (a === large.retention)
      rows.push({
        figure: `${label}: of which full-page images (a page's first change after a checkpoint), bytes`,
        value: fmt(a.walFpiBytes),
        baseline: fmt(b.walFpiBytes),
      });
    if (a === large.retention && a.commandWalBytes !== null)
      rows.push({
        figure: `${label}: of which oisr-server retention run (partition drops), WAL bytes`,
        value: fmt(a.commandWalBytes),
        baseline: fmt(b.commandWalBytes ?? 0),
        goal: "≤ 1,048,576",
      });
    rows.push({
      figure: `${label}: dead tuples left in requests, events, webhook_deliveries, idempotency_keys`,
      value: fmt(a.deadTuples),
      baseline: fmt(b.deadTuples),
      goal: "0",
    });
  }
  rows.push({
    figure: `ingest p99 while a retention pass runs, against without (${fmt(large.total)} requests), ms`,
    value: fmt(large.ackDuringRetentionP99),
    baseline: fmt(large.ackP99),
    ratio: r2(large.ackDuringRetentionP99 / large.ackP99),
    goal: "≤ 1.20×",
  });
  for (const [f, size] of [
    [large, "10M"],
    [small, "baseline"],
  ] as const)
    rows.push({
      figure: `control (${size}, ${fmt(f.total)} requests): ingest p99 while the same pass runs again with nothing left to drop (${f.retentionUnderLoad.how}), against without, ms`,
      value: fmt(f.ackDuringIdlePassP99),
      baseline: fmt(f.ackP99),
      ratio: r2(f.ackDuringIdlePassP99 / f.ackP99),
    });
  rows.push({
    figure: `baseline (${fmt(small.total)} requests): ingest p99 while a retention pass runs, against without, ms`,
    value: fmt(small.ackDuringRetentionP99),
    baseline: fmt(small.ackP99),
    ratio: r2(small.ackDuringRetentionP99 / small.ackP99),
  });
  printTable(
    `Growth: ${n(large)} requests of history (${fmt(large.accounts)} accounts × ${fmt(perAccount)}) against ${n(small)} (${fmt(small.accounts)}), 31 days, ${large.partitioned ? "time-partitioned schema" : "unpartitioned schema (row DELETE retention)"}`,
    rows,
  );
  const sizes: Row[] = Object.entries(large.bytes).map(([t, b]) => ({
    figure: `${t}: bytes per row (table + indexes + TOAST), ${fmt(b.rows)} rows`,
    value: fmt(b.bytes / Math.max(1, b.rows)),
    baseline: `${fmt((small.bytes[t]?.bytes ?? 0) / Math.max(1, small.bytes[t]?.rows ?? 1))} (${fmt(small.bytes[t]?.rows ?? 0)} rows)`,
    summary: t === "requests",
  }));
  sizes.push({
    figure:
      "WAL per one-order request accepted and applied (the drain's 10,000; cluster-wide, so an upper bound), bytes",
    value: fmt(large.walPerRequest),
    baseline: fmt(small.walPerRequest),
  });
  sizes.push({
    figure:
      "load average (1, 5, 15 min) when each side's measuring ended (both filled first, then measured one after the other)",
    value: large.load,
    baseline: small.load,
  });
  sizes.push({
    figure: "fill time, s (set-based SQL, then VACUUM ANALYZE)",
    value: fmt(large.fillSeconds, 1),
    baseline: fmt(small.fillSeconds, 1),
  });
  printTable("Growth: size on disk of the filled history", sizes);
  for (const f of [small, large])
    if (f.retention.output)
      printBlock(
        `oisr-server retention run, ${n(f)} requests (30 days)`,
        JSON.stringify(f.retention.output, null, 2),
      );
}
