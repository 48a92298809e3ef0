// How long partitions are, how far ahead they are made and how often the retention pass runs,
// from the retention period alone (decision 020). Pure arithmetic, shared by the startup step, the
// pass and the CLI.
import { DAY_MS, IDEMPOTENCY_WINDOW_MS } from "@oisr/contract";

const MINUTE_MS = 60_000;
/** Interval lengths a partition may have: each divides a UTC day, so bounds fall on round times. */
const STEPS_MS = [1, 5, 15, 60, 360, 1440].map((m) => m * MINUTE_MS);

/**
 * The `requests` partition interval: the longest step at most a tenth of the retention, so at most
 * ~11 partitions' worth of rows wait past the cut to be dropped (a tenth of the period, the price of
 * dropping whole partitions), and never longer than a day nor shorter than a minute. 30 days → 1 day
 * (≈ 34 partitions live); 12 h → 1 h; 10 m → 1 m, so a soak run with minutes of retention rolls.
 */
export function partitionIntervalMs(retentionDays: number): number {
  const tenth = (retentionDays * DAY_MS) / 10;
  let chosen = STEPS_MS[0] as number;
  for (const step of STEPS_MS) if (step <= tenth) chosen = step;
  return chosen;
}

/** `idempotency_keys` partitions are a day long: a lookup inside the 24 h window reads at most two. */
export const IDEMPOTENCY_INTERVAL_MS = DAY_MS;

/**
 * How far ahead of now partitions exist after a pass: four intervals, so inserts keep finding a
 * partition through three missed passes (a pass runs every quarter interval at most, see below).
 */
export const aheadMs = (intervalMs: number): number => 4 * intervalMs;

/**
 * How often a process attempts the pass: a quarter interval, between 15 s and 10 minutes (the old
 * purge's period). Only one process at a time does the work (an advisory lock); the others' try
 * costs one statement.
 */
export const passEveryMs = (intervalMs: number): number =>
  Math.min(10 * MINUTE_MS, Math.max(15_000, intervalMs / 4));

/**
 * A request partition is dropped once its upper bound is this far behind the retention cut. The
 * bound is an id's time, taken just before the accept statement, while reads cut on `accepted_at`,
 * its transaction's start; a minute covers that gap, so nothing a read would still show is dropped.
 */
export const REQUEST_DROP_GRACE_MS = MINUTE_MS;

/** Keys older than the window answer nothing (queue/accept.ts), so their partitions go then. */
export const IDEMPOTENCY_KEEP_MS = IDEMPOTENCY_WINDOW_MS;
