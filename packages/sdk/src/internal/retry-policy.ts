/**
 * When to retry and how long to wait: pure functions, so the table of cases is tested without
 * a network.
 */

export interface RetryConfig {
  /** Retries after the first attempt. */
  maxRetries: number;
  /** First backoff delay for 408/5xx/network errors. */
  initialDelayMs: number;
  /** Cap of the exponential backoff. */
  maxDelayMs: number;
  /**
   * Longest server-requested wait (`Retry-After`, `X-RateLimit-Reset`) the SDK sleeps through.
   * A longer request ends the retries with the error, so a call never hangs for minutes unseen.
   */
  maxRetryAfterMs: number;
}

export const DEFAULT_RETRY_CONFIG: RetryConfig = {
  maxRetries: 3,
  initialDelayMs: 500,
  maxDelayMs: 8_000,
  maxRetryAfterMs: 60_000,
};

/** What the last attempt produced. */
export type AttemptOutcome =
  | { kind: "response"; status: number; headers: Headers }
  | { kind: "network" }
  | { kind: "timeout" };

export interface RetryContext {
  /** 0 for the first retry (i.e. after the first attempt). */
  retryIndex: number;
  /**
   * Whether sending the request twice is harmless: safe methods, PUT/PATCH/DELETE, and any request
   * carrying an `Idempotency-Key`. Other requests are only retried when the server certainly did
   * not act on them (408, 429, 503).
   */
  idempotent: boolean;
  /** Local clock, ms. */
  now: number;
  /** `Math.random`-like, in [0, 1). */
  random: () => number;
}

export type RetryDecision = { retry: false } | { retry: true; delayMs: number };

/** Statuses at which the server did not act on the request, so even a non-idempotent call may be sent again. */
const NOT_PROCESSED = new Set([408, 429, 503]);

export function decideRetry(outcome: AttemptOutcome, config: RetryConfig, ctx: RetryContext): RetryDecision {
  if (ctx.retryIndex >= config.maxRetries) return { retry: false };

  if (outcome.kind !== "response") {
    return ctx.idempotent
      ? { retry: true, delayMs: backoffDelay(ctx.retryIndex, config, ctx.random) }
      : { retry: false };
  }

  const { status, headers } = outcome;
  const retryable = status === 408 || status === 429 || status >= 500;
  if (!retryable) return { retry: false };
  if (!ctx.idempotent && !NOT_PROCESSED.has(status)) return { retry: false };

  const hinted = serverDelayMs(headers, ctx.now, status === 429);
  if (hinted !== undefined) {
    if (hinted > config.maxRetryAfterMs) return { retry: false };
    // Positive jitter only: coming back early would just earn another 429.
    return { retry: true, delayMs: hinted + Math.floor(ctx.random() * Math.min(1_000, 100 + hinted * 0.1)) };
  }
  return { retry: true, delayMs: backoffDelay(ctx.retryIndex, config, ctx.random) };
}

/** Capped exponential backoff with jitter: base·2ⁿ capped, then reduced by up to 25 %. */
export function backoffDelay(retryIndex: number, config: RetryConfig, random: () => number): number {
  const base = Math.min(config.initialDelayMs * 2 ** retryIndex, config.maxDelayMs);
  return Math.round(base * (1 - 0.25 * random()));
}

/**
 * The wait the server asked for: `Retry-After` (seconds or HTTP date), else — for 429 only —
 * until `X-RateLimit-Reset`. `undefined` when it said nothing usable.
 */
export function serverDelayMs(headers: Headers, now: number, useReset: boolean): number | undefined {
  const retryAfter = parseRetryAfter(headers.get("retry-after"), now);
  if (retryAfter !== undefined) return retryAfter;
  if (!useReset) return undefined;
  const reset = resetAtMs(headers, now);
  return reset === undefined ? undefined : Math.max(0, reset - now);
}

export function parseRetryAfter(value: string | null, now: number): number | undefined {
  if (value === null) return undefined;
  const trimmed = value.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000);
  const date = Date.parse(trimmed);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/**
 * `X-RateLimit-Reset` (unix seconds on the server's clock) as a time on the local clock. When the
 * response carries a `Date` header, the offset is taken relative to it, so a skewed client clock
 * does not matter.
 */
export function resetAtMs(headers: Headers, now: number): number | undefined {
  const raw = headers.get("x-ratelimit-reset");
  if (raw === null || !/^\d+(\.\d+)?$/.test(raw.trim())) return undefined;
  const resetMs = Number(raw) * 1000;
  const serverNow = Date.parse(headers.get("date") ?? "");
  return Number.isNaN(serverNow) ? resetMs : now + (resetMs - serverNow);
}

export function parseIntHeader(headers: Headers, name: string): number | undefined {
  const raw = headers.get(name);
  if (raw === null || !/^\d+$/.test(raw.trim())) return undefined;
  return Number(raw);
}
