import { TimeoutError } from "../errors.ts";
import type { RequestRecord } from "../types.ts";
import { anySignal, sleep as defaultSleep } from "./abort.ts";

export interface WaitForOptions {
  /** Give up after this long (ms) with a `TimeoutError`. Default 300 000 (5 min); `Infinity` waits for ever. */
  timeoutMs?: number;
  /** Aborting stops the wait at once; the promise rejects with the signal's reason. */
  signal?: AbortSignal;
  /** Called with the record whenever its `status` or `attempts` changes (the first poll included). */
  onProgress?: (record: RequestRecord) => void;
}

export interface PollTiming {
  /** Wait before the first poll (0 for a resumed wait, which may find the request already done). */
  initialDelayMs: number;
  firstIntervalMs: number;
  maxIntervalMs: number;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  random?: () => number;
}

export const DEFAULT_POLL_TIMING: PollTiming = {
  initialDelayMs: 0,
  firstIntervalMs: 100,
  maxIntervalMs: 2_000,
};
export const DEFAULT_WAIT_TIMEOUT_MS = 300_000;

export type FetchRecord = (
  signal: AbortSignal | undefined,
) => Promise<{ record: RequestRecord; retryAfterMs: number | undefined }>;

const FINAL = new Set<RequestRecord["status"]>(["succeeded", "failed", "dead"]);

export function isFinal(record: RequestRecord): boolean {
  return FINAL.has(record.status);
}

/**
 * Polls a request record until it is final. The interval starts at 100 ms (most requests finish
 * within a few hundred) and doubles up to 2 s, with ±10 % jitter; a `Retry-After` on a poll
 * response is a floor for the next interval.
 */
export async function pollUntilFinal(
  requestId: string,
  fetchRecord: FetchRecord,
  options: WaitForOptions = {},
  timing: PollTiming = DEFAULT_POLL_TIMING,
): Promise<RequestRecord> {
  const sleep = timing.sleep ?? defaultSleep;
  const random = timing.random ?? Math.random;
  const timeoutMs = options.timeoutMs ?? DEFAULT_WAIT_TIMEOUT_MS;
  const deadline = new AbortController();
  let last: RequestRecord | undefined;
  const timer = Number.isFinite(timeoutMs)
    ? setTimeout(() => {
        const where = last ? `still ${last.status} after ${last.attempts} attempt(s)` : "no answer yet";
        deadline.abort(
          new TimeoutError(`Request ${requestId}: ${where} when the ${timeoutMs} ms wait ran out`, timeoutMs),
        );
      }, timeoutMs)
    : undefined;
  const combined = anySignal([options.signal, deadline.signal]);
  const signal = combined.signal;

  try {
    let interval = timing.firstIntervalMs;
    if (timing.initialDelayMs > 0) await sleep(timing.initialDelayMs, signal);
    for (;;) {
      const { record, retryAfterMs } = await fetchRecord(signal).catch((err: unknown) => {
        // The transport rejects with the signal's reason; make sure it is ours when we timed out.
        throw signal.aborted ? signal.reason : err;
      });
      if (!last || last.status !== record.status || last.attempts !== record.attempts)
        options.onProgress?.(record);
      last = record;
      if (isFinal(record)) return record;
      const jittered = Math.round(interval * (0.9 + 0.2 * random()));
      await sleep(Math.max(jittered, retryAfterMs ?? 0), signal);
      interval = Math.min(interval * 2, timing.maxIntervalMs);
    }
  } finally {
    clearTimeout(timer);
    combined.dispose();
  }
}
