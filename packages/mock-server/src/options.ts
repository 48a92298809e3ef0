// What a mock can be configured with, and the same settings read from the server's environment
// variables (the standalone bin and the contract-test targets use them).
import {
  checkRateLimits,
  DEFAULT_MAX_ATTEMPTS,
  DEFAULT_REQUEST_RETENTION_DAYS,
  DEFAULT_WEBHOOK_RETRY_SCHEDULE,
  DEFAULT_WEBHOOK_SUBSCRIPTION_CONCURRENCY,
  parseNonNegativeInteger,
  parseRetrySchedule,
  rateLimitsWith,
  readSharedSettings,
  WEBHOOK_ATTEMPT_TIMEOUT_MS,
} from "@oisr/contract";
import type { ClockOptions } from "./clock.ts";
import type { RateLimits } from "./store/rate-limit.ts";

export interface WebhookOptions {
  /** POST events to subscribed URLs (default true). Events are captured for `events()` either way. */
  deliver?: boolean;
  /** The fetch deliveries use (default `globalThis.fetch`, which msw intercepts in tests). */
  fetch?: typeof fetch;
  /** Delays before each retry after the immediate first attempt (default the server's 5s,5m,30m,2h,5h,10h,10h). */
  retrySchedule?: number[];
  /**
   * Accept `http:` and private, loopback or link-local hosts (the server's
   * `OISR_WEBHOOK_ALLOW_PRIVATE_NETWORKS=1`). Default false, like the server.
   */
  allowPrivateNetworks?: boolean;
  /** Per-attempt timeout (default 10 s, as the server). */
  timeoutMs?: number;
  /**
   * Attempts to one subscription in flight at once, 1 to 100 (default 4, as the server's
   * `OISR_WEBHOOK_SUBSCRIPTION_CONCURRENCY`).
   */
  subscriptionConcurrency?: number;
}

export interface MockOptions {
  /** The API base URL the handlers answer, ending in the version (default `http://localhost:4010/v2`). */
  baseUrl?: string;
  /**
   * Answer every path of the base URL's origin, unknown ones `404` as the server does (default
   * true, except for a base URL on the page's own origin in a browser, where the app's own
   * requests must pass).
   */
  ownOrigin?: boolean;
  /**
   * Every new `oisr_…` token is an account of its own (default true). With false, only tokens
   * made by `controls.createAccount` / `createToken` or given to `seed` are accepted, like the server.
   */
  acceptAnyToken?: boolean;
  /** How long a request stays `pending` before processing starts (default 0: on the next tick). */
  processingDelayMs?: number;
  /** How long a request stays `processing` (default 0). */
  processingDurationMs?: number;
  /** Attempts before a request that keeps failing transiently is `dead` (default 5, as the server). */
  maxAttempts?: number;
  /** First delay between such attempts, doubling each time (default 0, the server waits ~1 s, 2 s, …). */
  retryDelayMs?: number;
  /** Limits per 60 s by scope, merged over the server's defaults; `false` turns rate limiting off. */
  rateLimits?: Partial<RateLimits> | false;
  /** Request records are answered 404 after this many days (default 30). */
  requestRetentionDays?: number;
  clock?: ClockOptions;
  webhooks?: WebhookOptions;
}

export interface ResolvedOptions {
  baseUrl: URL;
  ownOrigin: boolean;
  acceptAnyToken: boolean;
  processingDelayMs: number;
  processingDurationMs: number;
  maxAttempts: number;
  retryDelayMs: number;
  rateLimits: RateLimits | false;
  requestRetentionDays: number;
  clock: ClockOptions;
  webhooks: Required<Omit<WebhookOptions, "fetch">> & { fetch: typeof fetch | undefined };
}

export const DEFAULT_BASE_URL = "http://localhost:4010/v2";

function baseUrlOf(value: string | undefined): URL {
  const fallbackOrigin =
    (globalThis as { location?: { origin?: string } }).location?.origin ?? "http://localhost";
  const url = new URL(value ?? DEFAULT_BASE_URL, fallbackOrigin);
  url.pathname = url.pathname.replace(/\/+$/, "");
  url.search = "";
  url.hash = "";
  return url;
}

const nonNegative = (value: number | undefined, fallback: number, name: string): number => {
  const n = value ?? fallback;
  if (!Number.isFinite(n) || n < 0) throw new RangeError(`${name} must be a non-negative number`);
  return n;
};

function subscriptionConcurrencyOf(value: number | undefined): number {
  if (value === undefined) return DEFAULT_WEBHOOK_SUBSCRIPTION_CONCURRENCY;
  if (!Number.isInteger(value) || value < 1 || value > 100)
    throw new RangeError("webhooks.subscriptionConcurrency must be a whole number from 1 to 100");
  return value;
}

export function resolveOptions(options: MockOptions = {}): ResolvedOptions {
  const limits = options.rateLimits;
  const baseUrl = baseUrlOf(options.baseUrl);
  const pageOrigin = (globalThis as { location?: { origin?: string } }).location?.origin;
  return {
    baseUrl,
    ownOrigin: options.ownOrigin ?? baseUrl.origin !== pageOrigin,
    acceptAnyToken: options.acceptAnyToken ?? true,
    processingDelayMs: nonNegative(options.processingDelayMs, 0, "processingDelayMs"),
    processingDurationMs: nonNegative(options.processingDurationMs, 0, "processingDurationMs"),
    maxAttempts: Math.max(
      1,
      Math.floor(nonNegative(options.maxAttempts, DEFAULT_MAX_ATTEMPTS, "maxAttempts")),
    ),
    retryDelayMs: nonNegative(options.retryDelayMs, 0, "retryDelayMs"),
    rateLimits: limits === false ? false : rateLimitsWith(limits && checkRateLimits(limits, "rateLimits")),
    requestRetentionDays: nonNegative(
      options.requestRetentionDays,
      DEFAULT_REQUEST_RETENTION_DAYS,
      "requestRetentionDays",
    ),
    clock: options.clock ?? {},
    webhooks: {
      deliver: options.webhooks?.deliver ?? true,
      fetch: options.webhooks?.fetch,
      retrySchedule: options.webhooks?.retrySchedule ?? [...DEFAULT_WEBHOOK_RETRY_SCHEDULE],
      allowPrivateNetworks: options.webhooks?.allowPrivateNetworks ?? false,
      timeoutMs: options.webhooks?.timeoutMs ?? WEBHOOK_ATTEMPT_TIMEOUT_MS,
      subscriptionConcurrency: subscriptionConcurrencyOf(options.webhooks?.subscriptionConcurrency),
    },
  };
}

/**
 * Mock options from the server's environment variables, so one configuration drives both:
 * `OISR_RATE_LIMITS` (JSON, or `off`), `OISR_MAX_ATTEMPTS`, `OISR_RETRY_BASE_MS`,
 * `OISR_REQUEST_RETENTION` (or `OISR_REQUEST_RETENTION_DAYS`), `OISR_WEBHOOK_RETRY_SCHEDULE`, `OISR_WEBHOOK_ALLOW_PRIVATE_NETWORKS`,
 * `OISR_WEBHOOK_SUBSCRIPTION_CONCURRENCY`,
 * plus the mock's own `OISR_MOCK_PROCESSING_DELAY_MS` and `OISR_MOCK_PROCESSING_DURATION_MS`.
 */
export function mockOptionsFromEnv(env: Record<string, string | undefined>): MockOptions {
  // `off` is the mock's own: the server always limits.
  const rateLimitsOff = env.OISR_RATE_LIMITS === "off";
  const shared = readSharedSettings(rateLimitsOff ? { ...env, OISR_RATE_LIMITS: undefined } : env);
  const options: MockOptions = {};
  if (rateLimitsOff) options.rateLimits = false;
  else if (shared.rateLimits) options.rateLimits = shared.rateLimits;
  if (shared.maxAttempts !== undefined) options.maxAttempts = shared.maxAttempts;
  if (shared.retryBaseMs !== undefined) options.retryDelayMs = shared.retryBaseMs;
  if (shared.requestRetentionDays !== undefined) options.requestRetentionDays = shared.requestRetentionDays;
  const delay = parseNonNegativeInteger(env.OISR_MOCK_PROCESSING_DELAY_MS, "OISR_MOCK_PROCESSING_DELAY_MS");
  if (delay !== undefined) options.processingDelayMs = delay;
  const duration = parseNonNegativeInteger(
    env.OISR_MOCK_PROCESSING_DURATION_MS,
    "OISR_MOCK_PROCESSING_DURATION_MS",
  );
  if (duration !== undefined) options.processingDurationMs = duration;
  const webhooks: WebhookOptions = {};
  if (env.OISR_WEBHOOK_RETRY_SCHEDULE !== undefined) {
    webhooks.retrySchedule = parseRetrySchedule(env.OISR_WEBHOOK_RETRY_SCHEDULE);
  }
  if (shared.webhookAllowPrivateNetworks !== undefined) {
    webhooks.allowPrivateNetworks = shared.webhookAllowPrivateNetworks;
  }
  if (shared.webhookSubscriptionConcurrency !== undefined) {
    webhooks.subscriptionConcurrency = shared.webhookSubscriptionConcurrency;
  }
  if (Object.keys(webhooks).length > 0) options.webhooks = webhooks;
  return options;
}
