// When to retry a webhook delivery and when to give up on a subscription (decision 004).

/** Jitter spreads retries of many deliveries that failed together (an outage) over time. */
const JITTER = 0.2;

/**
 * Delay before the next attempt after `attempts` failed ones, or null when the schedule is spent.
 * `schedule[i]` is the delay before attempt i + 2 (the first attempt is immediate); each delay is
 * stretched or shrunk by up to 10 %.
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

export function shouldDisable(
  consecutiveFailures: number,
  failingSince: string | null,
  now: Date,
  policy: DisablePolicy,
): boolean {
  if (consecutiveFailures < policy.disableAfterFailures || failingSince === null) return false;
  return now.getTime() - new Date(failingSince).getTime() >= policy.disableAfterMs;
}
