// Configuration the server and the mock both read (docs/product.md §10), parsed once: the variables
// they share, their defaults, and the parsers of their values. Pure functions over the strings of
// an environment; reading `process.env` is each side's own (the server's config.ts, the mock's bin).
import {
  DEFAULT_RATE_LIMITS,
  isRateLimitScope,
  RATE_LIMIT_SCOPES,
  type RateLimitScope,
  type RateLimits,
} from "./rate-limits.ts";

/** Variables by name, as `process.env` holds them; unset and empty mean the default. */
export type Environment = Readonly<Record<string, string | undefined>>;

/** Processing attempts before a request that keeps failing transiently is `dead`. */
export const DEFAULT_MAX_ATTEMPTS = 5;
/** Request records are answered 404 after this many days. */
export const DEFAULT_REQUEST_RETENTION_DAYS = 30;
/** Delivery attempts to one subscription in flight at once (`OISR_WEBHOOK_SUBSCRIPTION_CONCURRENCY`). */
export const DEFAULT_WEBHOOK_SUBSCRIPTION_CONCURRENCY = 4;
/** Catches a slip (400 for 4): a server dispatcher makes 16 attempts at once in all, whatever this says. */
const MAX_WEBHOOK_SUBSCRIPTION_CONCURRENCY = 100;
export const DAY_MS = 86_400_000;

const DURATION = /^(\d+(?:\.\d+)?)(ms|s|m|h)$/;
const UNIT_MS = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 } as const;

/** `500ms`, `5s`, `5m`, `2h` → milliseconds. */
export function parseDuration(text: string): number {
  const match = DURATION.exec(text.trim());
  if (!match) throw new Error(`invalid duration "${text}" (expected e.g. 500ms, 5s, 5m, 2h)`);
  return Number(match[1]) * UNIT_MS[match[2] as keyof typeof UNIT_MS];
}

const RETENTION = /^(\d+(?:\.\d+)?)(d|h|m)?$/;
const RETENTION_UNIT_MS = { d: DAY_MS, h: 3_600_000, m: 60_000 } as const;
/** The shortest retention: the partition manager's interval is at least a minute (decision 020). */
export const MIN_RETENTION_MS = 60_000;

/**
 * A retention period in days (fractional for hours and minutes): `30d`, `12h`, `90m`, or a plain
 * number of days (`30`, the form OISR_REQUEST_RETENTION_DAYS always took). At least a minute.
 *
 * @example parseRetention("12h", "OISR_REQUEST_RETENTION") // 0.5
 */
export function parseRetention(text: string, name: string): number {
  const match = RETENTION.exec(text.trim());
  const ms = match
    ? Number(match[1]) * RETENTION_UNIT_MS[(match[2] ?? "d") as keyof typeof RETENTION_UNIT_MS]
    : NaN;
  if (!Number.isFinite(ms) || ms < MIN_RETENTION_MS)
    throw new Error(
      `${name} must be a duration of at least 1m such as 30d, 12h or 90m, or a number of days; got "${text}"`,
    );
  return ms / DAY_MS;
}

/** A whole number ≥ 0, or undefined when unset or empty; anything else names the variable in its error. */
export function parseNonNegativeInteger(value: string | undefined, name: string): number | undefined {
  if (value === undefined || value === "") return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new Error(`${name} must be a non-negative integer`);
  return n;
}

/** `OISR_WEBHOOK_SUBSCRIPTION_CONCURRENCY`: a whole number from 1 to 100, or undefined when unset or empty. */
export function parseWebhookSubscriptionConcurrency(
  value: string | undefined,
  name = "OISR_WEBHOOK_SUBSCRIPTION_CONCURRENCY",
): number | undefined {
  if (value === undefined || value === "") return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > MAX_WEBHOOK_SUBSCRIPTION_CONCURRENCY) {
    throw new Error(`${name} must be a whole number from 1 to ${MAX_WEBHOOK_SUBSCRIPTION_CONCURRENCY}`);
  }
  return n;
}

/** `1` turns a switch on, any other value off; undefined when unset. */
export function parseSwitch(value: string | undefined): boolean | undefined {
  return value === undefined ? undefined : value === "1";
}

/**
 * Rate-limit overrides given as a value (the mock's `rateLimits` option, an account's limits):
 * known scopes only, each a positive integer. `source` names where they came from in the error.
 */
export function checkRateLimits(value: unknown, source: string): Partial<RateLimits> {
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    throw new Error(`${source} must be an object of scope → calls per 60 s, e.g. {"ingest": 1200}`);
  }
  const limits: Partial<RateLimits> = {};
  for (const [scope, limit] of Object.entries(value)) {
    if (!isRateLimitScope(scope)) {
      throw new Error(`${source}: unknown scope "${scope}" (scopes: ${RATE_LIMIT_SCOPES.join(", ")})`);
    }
    if (typeof limit !== "number" || !Number.isInteger(limit) || limit < 1) {
      throw new Error(`${source}: the limit of "${scope}" must be a positive integer`);
    }
    limits[scope] = limit;
  }
  return limits;
}

/** Rate-limit overrides as JSON text (`OISR_RATE_LIMITS`, `accounts set-limits`), checked as checkRateLimits does. */
export function parseRateLimits(json: string, source = "OISR_RATE_LIMITS"): Partial<RateLimits> {
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    throw new Error(
      `${source} is not JSON: expected an object of scope → calls per 60 s, e.g. {"ingest": 1200}`,
    );
  }
  return checkRateLimits(value, source);
}

/** The deployment's limits: the contract's defaults with `overrides` over them. */
export function rateLimitsWith(overrides: Partial<RateLimits> | undefined): RateLimits {
  return { ...DEFAULT_RATE_LIMITS, ...overrides };
}

/**
 * The settings the server and the mock share, each left out when its variable is unset, so that
 * each side applies its own default where they differ (the mock retries at once, the server after
 * `OISR_RETRY_BASE_MS` = 1000).
 */
export interface SharedSettings {
  /** `OISR_RATE_LIMITS`: overrides of the default limits. */
  rateLimits?: Partial<Record<RateLimitScope, number>>;
  /** `OISR_MAX_ATTEMPTS`; 0 means 1, as one attempt is always made. */
  maxAttempts?: number;
  /** `OISR_RETRY_BASE_MS`: the first retry delay of a request, doubling per attempt. */
  retryBaseMs?: number;
  /**
   * `OISR_REQUEST_RETENTION` (`30d`, `12h`, `90m` or days), else `OISR_REQUEST_RETENTION_DAYS`
   * (days, the older name): in days, fractional below a day.
   */
  requestRetentionDays?: number;
  /** `OISR_WEBHOOK_ALLOW_PRIVATE_NETWORKS=1`: http and private, loopback or link-local webhook URLs. */
  webhookAllowPrivateNetworks?: boolean;
  /** `OISR_WEBHOOK_SUBSCRIPTION_CONCURRENCY`: delivery attempts to one subscription in flight at once. */
  webhookSubscriptionConcurrency?: number;
}

export function readSharedSettings(env: Environment): SharedSettings {
  const settings: SharedSettings = {};
  if (env.OISR_RATE_LIMITS) settings.rateLimits = parseRateLimits(env.OISR_RATE_LIMITS);
  const maxAttempts = parseNonNegativeInteger(env.OISR_MAX_ATTEMPTS, "OISR_MAX_ATTEMPTS");
  if (maxAttempts !== undefined) settings.maxAttempts = Math.max(1, maxAttempts);
  const retryBaseMs = parseNonNegativeInteger(env.OISR_RETRY_BASE_MS, "OISR_RETRY_BASE_MS");
  if (retryBaseMs !== undefined) settings.retryBaseMs = retryBaseMs;
  if (env.OISR_REQUEST_RETENTION)
    settings.requestRetentionDays = parseRetention(env.OISR_REQUEST_RETENTION, "OISR_REQUEST_RETENTION");
  else if (env.OISR_REQUEST_RETENTION_DAYS)
    settings.requestRetentionDays = parseRetention(
      env.OISR_REQUEST_RETENTION_DAYS,
      "OISR_REQUEST_RETENTION_DAYS",
    );
  const allowPrivate = parseSwitch(env.OISR_WEBHOOK_ALLOW_PRIVATE_NETWORKS);
  if (allowPrivate !== undefined) settings.webhookAllowPrivateNetworks = allowPrivate;
  const concurrency = parseWebhookSubscriptionConcurrency(env.OISR_WEBHOOK_SUBSCRIPTION_CONCURRENCY);
  if (concurrency !== undefined) settings.webhookSubscriptionConcurrency = concurrency;
  return settings;
}
