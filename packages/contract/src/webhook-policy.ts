// How webhook deliveries are retried and when a subscription is disabled (docs/product.md §6,
// decision 004), decided the same way by the server's dispatcher (webhooks/sql/attempts.ts) and the
// mock's (on its clock): at-least-once, exponential backoff with jitter over about a day, a `410`
// disables at once, a long failure streak disables too.
import { parseDuration } from "./config.ts";
import { HTTP_STATUS_TEXT } from "./http-status-text.ts";

/** `OISR_WEBHOOK_RETRY_SCHEDULE`'s default: delays before attempts 2 to 8 (the first is immediate). */
export const DEFAULT_WEBHOOK_RETRY_SCHEDULE_TEXT = "5s,5m,30m,2h,5h,10h,10h";
export const DEFAULT_WEBHOOK_RETRY_SCHEDULE: readonly number[] = [
  5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000,
];

/** Time one attempt gets to be answered before it counts as failed (`timeout`). */
export const WEBHOOK_ATTEMPT_TIMEOUT_MS = 10_000;
export const WEBHOOK_USER_AGENT = "OISR-Webhooks/2";
/** How long the secret replaced by a rotation keeps signing, beside the new one. */
export const SECRET_ROTATION_OVERLAP_MS = 24 * 3_600_000;
/** The receiver's "stop sending" (Standard Webhooks): the subscription is disabled at once. */
export const WEBHOOK_GONE_STATUS = 410;

/**
 * A retry schedule as `OISR_WEBHOOK_RETRY_SCHEDULE` writes it: comma-separated durations, the
 * delays before each retry. Empty entries are skipped, so an empty text means "never retry".
 */
export function parseRetrySchedule(text: string, name = "OISR_WEBHOOK_RETRY_SCHEDULE"): number[] {
  return text
    .split(",")
    .filter((entry) => entry.trim() !== "")
    .map((entry) => {
      try {
        return parseDuration(entry);
      } catch (err) {
        throw new Error(`${name}: ${(err as Error).message} in "${text}"; write e.g. 5s,5m,30m,2h`);
      }
    });
}

/** Spreads the retries of many deliveries that failed together (an outage) over time. */
const JITTER = 0.2;

/**
 * Delay before the next attempt after `attempts` failed ones, or null when the schedule is spent.
 * `schedule[i]` is the delay before attempt i + 2; each delay is stretched or shrunk by up to 10 %
 * (`random` returning 0.5 gives the delay unchanged, as the mock's reproducible clock wants).
 */
export function nextAttemptDelay(
  attempts: number,
  schedule: readonly number[],
  random: () => number = Math.random,
): number | null {
  const base = schedule[attempts - 1];
  if (base === undefined) return null;
  return Math.round(base * (1 - JITTER / 2 + random() * JITTER));
}

export interface DisablePolicy {
  /** Consecutive failed attempts (across deliveries, reset by any 2xx) needed to disable. */
  disableAfterFailures: number;
  /** …and how long the failure streak must have lasted, so one burst during a short outage does not disable. */
  disableAfterMs: number;
}

export const DEFAULT_DISABLE_POLICY: DisablePolicy = {
  disableAfterFailures: 20,
  disableAfterMs: 24 * 3_600_000,
};

type Moment = Date | string | number;
const msOf = (moment: Moment) => (moment instanceof Date ? moment.getTime() : new Date(moment).getTime());

export function shouldDisable(
  consecutiveFailures: number,
  failingSince: Moment | null,
  now: Moment,
  policy: DisablePolicy = DEFAULT_DISABLE_POLICY,
): boolean {
  if (consecutiveFailures < policy.disableAfterFailures || failingSince === null) return false;
  return msOf(now) - msOf(failingSince) >= policy.disableAfterMs;
}

export interface FailedAttempt {
  /** The receiver's status; undefined when none came (timeout, refused connection, URL not allowed). */
  status?: number;
  /** The receiver's `Retry-After` in seconds, as `answeredAttempt` read it (429 and 503 only). */
  retryAfterSeconds?: number;
  /** This attempt's number, from 1. */
  attempt: number;
  /** A `webhook.test` delivery, which a disabled subscription still gets (and retries). */
  testEvent: boolean;
  subscriptionEnabled: boolean;
  /** The subscription's streak before this attempt, and when it began (null: no streak). */
  consecutiveFailures: number;
  failingSince: Moment | null;
  now: Moment;
  schedule: readonly number[];
  policy?: DisablePolicy;
  random?: () => number;
}

export interface AfterFailure {
  /** The streak including this attempt. */
  consecutiveFailures: number;
  /** Why the subscription is disabled now (`http_410` or a long streak), or null. */
  disable: "http_410" | "failing" | null;
  /**
   * Delay until the next attempt of this delivery, never shorter than `pauseMs`; null when there
   * is none.
   */
  retryDelayMs: number | null;
  /** How long every delivery to the subscription now waits (the receiver's `Retry-After`, capped); 0 for none. */
  pauseMs: number;
}

/** What follows a failed attempt: the new streak, whether to disable, and when to try again. */
export function afterFailedAttempt(failed: FailedAttempt): AfterFailure {
  const consecutiveFailures = failed.consecutiveFailures + 1;
  const disable =
    failed.status === WEBHOOK_GONE_STATUS
      ? "http_410"
      : failed.subscriptionEnabled &&
          shouldDisable(consecutiveFailures, failed.failingSince ?? failed.now, failed.now, failed.policy)
        ? "failing"
        : null;
  // A disabled subscription gets no retries; a test event sent to one may be retried.
  const mayRetry = disable === null && (failed.subscriptionEnabled || failed.testEvent);
  const pauseMs = backpressurePauseMs(failed.retryAfterSeconds);
  const scheduled = mayRetry ? nextAttemptDelay(failed.attempt, failed.schedule, failed.random) : null;
  return {
    consecutiveFailures,
    disable,
    retryDelayMs: scheduled === null ? null : Math.max(scheduled, pauseMs),
    pauseMs,
  };
}

/**
 * The longest pause a receiver's `Retry-After` buys: past it, a receiver that asked for a day (or
 * sent a date far off by mistake) would silently lose its retry schedule, which spans about a day.
 */
export const MAX_BACKPRESSURE_PAUSE_MS = 3_600_000;
/** The statuses whose `Retry-After` pauses a subscription (Standard Webhooks: "slow down"). */
export const BACKPRESSURE_STATUSES: ReadonlySet<number> = new Set([429, 503]);
/** retry_after_seconds is a 32-bit column on the server: a receiver's larger value is recorded as this. */
const MAX_RECORDED_RETRY_AFTER_SECONDS = 2_147_483_647;

/** How long the subscription pauses after a `Retry-After` of `seconds`: at most an hour; 0 for none. */
export function backpressurePauseMs(seconds: number | undefined | null): number {
  return seconds == null ? 0 : Math.min(seconds * 1000, MAX_BACKPRESSURE_PAUSE_MS);
}

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
const TIME = "(\\d{2}):(\\d{2}):(\\d{2})";
const MONTH = `(${MONTHS.join("|")})`;
// RFC 9110 section 5.6.7: a recipient accepts all three forms of HTTP-date.
const IMF_FIXDATE = new RegExp(`^(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun), (\\d{2}) ${MONTH} (\\d{4}) ${TIME} GMT$`);
const RFC850_DATE = new RegExp(
  `^(?:Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday), (\\d{2})-${MONTH}-(\\d{2}) ${TIME} GMT$`,
);
const ASCTIME_DATE = new RegExp(`^(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun) ${MONTH} ([ \\d]\\d) ${TIME} (\\d{4})$`);

/**
 * An HTTP-date as epoch milliseconds, or null. Parsed by hand rather than with `Date.parse`, which
 * takes nearly anything ("1.5" is a date in V8) and reads the two older forms differently per engine.
 */
export function parseHttpDate(text: string, now: number): number | null {
  let fields: { day: string; month: string; year: number; time: string[] } | undefined;
  const imf = IMF_FIXDATE.exec(text);
  const rfc850 = RFC850_DATE.exec(text);
  const asctime = ASCTIME_DATE.exec(text);
  if (imf) {
    const [, day, month, year, ...time] = imf as unknown as string[];
    fields = { day: day as string, month: month as string, year: Number(year), time };
  } else if (rfc850) {
    const [, day, month, yy, ...time] = rfc850 as unknown as string[];
    // A two-digit year more than 50 years ahead is the latest past year with those digits (RFC 9110).
    const thisYear = new Date(now).getUTCFullYear();
    const year = Math.floor(thisYear / 100) * 100 + Number(yy);
    fields = {
      day: day as string,
      month: month as string,
      year: year > thisYear + 50 ? year - 100 : year,
      time,
    };
  } else if (asctime) {
    const [, month, day, hh, mm, ss, year] = asctime as unknown as string[];
    fields = {
      day: (day as string).trim(),
      month: month as string,
      year: Number(year),
      time: [hh, mm, ss] as string[],
    };
  }
  if (!fields) return null;
  const [hour, minute, second] = fields.time.map(Number) as [number, number, number];
  const month = MONTHS.indexOf(fields.month);
  const day = Number(fields.day);
  if (hour > 23 || minute > 59 || second > 60) return null;
  const ms = Date.UTC(fields.year, month, day, hour, minute, second);
  // Date.UTC rolls 31 Feb over into March: such a date is not one.
  const back = new Date(ms);
  return back.getUTCMonth() === month && back.getUTCDate() === day ? ms : null;
}

/**
 * A `Retry-After` value in whole seconds from `now`: delta-seconds (a decimal is rounded up) or an
 * HTTP-date (one in the past is 0). Null when absent or not either form.
 */
export function parseRetryAfter(value: string | null | undefined, now: number): number | null {
  if (value == null) return null;
  const text = value.trim();
  let seconds: number;
  if (/^\d+(?:\.\d+)?$/.test(text)) seconds = Math.ceil(Number(text));
  else {
    const at = parseHttpDate(text, now);
    if (at === null) return null;
    seconds = Math.max(0, Math.ceil((at - now) / 1000));
  }
  return Math.min(seconds, MAX_RECORDED_RETRY_AFTER_SECONDS);
}

/** The most of a receiver's answer body an attempt reads and keeps (`response_body`), in bytes. */
export const WEBHOOK_RESPONSE_BODY_MAX_BYTES = 1024;
/** The most of a receiver's `Content-Type` an attempt keeps (`response_content_type`), in characters. */
export const WEBHOOK_RESPONSE_CONTENT_TYPE_MAX_CHARS = 200;

/** What an attempt keeps of the receiver's answer, as the API lists it. */
export interface ResponseSnippet {
  /** The first bytes of the body as text; null for an empty body. */
  body: string | null;
  /** The `Content-Type`, truncated; null when absent or empty. */
  contentType: string | null;
}

/**
 * What is kept of an answer, the same on the server and the mock: the first
 * WEBHOOK_RESPONSE_BODY_MAX_BYTES bytes of the body decoded as UTF-8 (a character the cut splits is
 * dropped; bytes that are not UTF-8 become U+FFFD, and so does NUL, which a Postgres text column
 * refuses), and the `Content-Type` cut at WEBHOOK_RESPONSE_CONTENT_TYPE_MAX_CHARS characters. Pass
 * what was read (more than the limit is ignored); a sender need read no further than the limit.
 */
export function responseSnippet(
  bytes: Uint8Array | null | undefined,
  contentType: string | null | undefined,
): ResponseSnippet {
  const head = bytes ? bytes.subarray(0, WEBHOOK_RESPONSE_BODY_MAX_BYTES) : new Uint8Array(0);
  // `stream: true` holds back an incomplete last character instead of turning it into U+FFFD.
  const text = new TextDecoder("utf-8", { fatal: false, ignoreBOM: true })
    .decode(head, { stream: true })
    .replaceAll("\u0000", "\uFFFD");
  const type = contentType ? contentType.slice(0, WEBHOOK_RESPONSE_CONTENT_TYPE_MAX_CHARS) : "";
  return { body: head.length === 0 ? null : text, contentType: type === "" ? null : type };
}

export type AttemptResult =
  | { ok: true; status: number; durationMs: number; response?: ResponseSnippet }
  | {
      ok: false;
      status?: number;
      error: string;
      durationMs: number;
      /** The receiver's `Retry-After` in seconds, kept on 429 and 503 only. */
      retryAfterSeconds?: number;
      /** What was kept of the answer, when one came (responseSnippet). */
      response?: ResponseSnippet;
    };

/**
 * An answer's outcome: any 2xx delivered; anything else failed, with the error the API lists, and
 * on 429 or 503 the `Retry-After` the receiver sent (relative to `now`), when it is one.
 */
export function answeredAttempt(
  status: number,
  durationMs: number,
  retryAfter?: string | null,
  now: number = Date.now(),
): AttemptResult {
  if (status >= 200 && status < 300) return { ok: true, status, durationMs };
  const error = `HTTP ${status} ${HTTP_STATUS_TEXT[status] ?? ""}`.trim();
  const seconds = BACKPRESSURE_STATUSES.has(status) ? parseRetryAfter(retryAfter, now) : null;
  return seconds === null
    ? { ok: false, status, error, durationMs }
    : { ok: false, status, error, durationMs, retryAfterSeconds: seconds };
}

const NETWORK_ERRORS: Record<string, string> = {
  ECONNREFUSED: "connection refused",
  ECONNRESET: "connection reset",
  EHOSTUNREACH: "host unreachable",
  ENETUNREACH: "network unreachable",
  ENOTFOUND: "host not found",
  EAI_AGAIN: "DNS lookup failed",
  ETIMEDOUT: "timeout",
  EPIPE: "connection reset",
};

/**
 * The `error` an attempt that got no answer records: a short reason, no stack, no internals. Node's
 * errors carry a `code` (on the error from node:http, on its `cause` from fetch); a browser's fetch
 * says nothing, which is "request failed".
 */
export function unansweredAttemptError(err: unknown, timedOut: boolean): string {
  if (timedOut) return "timeout";
  const e = err as { code?: unknown; cause?: { code?: unknown } } | null | undefined;
  const raw = e?.code ?? e?.cause?.code;
  const code = typeof raw === "string" ? raw : undefined;
  if (code && NETWORK_ERRORS[code]) return NETWORK_ERRORS[code] as string;
  if (code?.startsWith("ERR_TLS") || code?.includes("CERT")) return `TLS error (${code})`;
  return code ? `request failed (${code})` : "request failed";
}

/** The `response_status` an attempt records: only a real HTTP status, never 0 or garbage. */
export function recordedStatus(status: number | undefined): number | null {
  return status !== undefined && status >= 100 && status <= 599 ? status : null;
}
