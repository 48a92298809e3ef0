// How webhook deliveries are retried and when a subscription is disabled (CONTRACT section 6,
// decision 004), decided the same way by the server's dispatcher (deliveries-store.ts) and the
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
  /** Delay until the next attempt of this delivery; null when there is none. */
  retryDelayMs: number | null;
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
  return {
    consecutiveFailures,
    disable,
    retryDelayMs: mayRetry ? nextAttemptDelay(failed.attempt, failed.schedule, failed.random) : null,
  };
}

export type AttemptResult =
  | { ok: true; status: number; durationMs: number }
  | { ok: false; status?: number; error: string; durationMs: number };

/** An answer's outcome: any 2xx delivered; anything else failed, with the error the API lists. */
export function answeredAttempt(status: number, durationMs: number): AttemptResult {
  if (status >= 200 && status < 300) return { ok: true, status, durationMs };
  const error = `HTTP ${status} ${HTTP_STATUS_TEXT[status] ?? ""}`.trim();
  return { ok: false, status, error, durationMs };
}

/** The `response_status` an attempt records: only a real HTTP status, never 0 or garbage. */
export function recordedStatus(status: number | undefined): number | null {
  return status !== undefined && status >= 100 && status <= 599 ? status : null;
}
