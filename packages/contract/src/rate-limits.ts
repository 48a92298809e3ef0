// Rate limits as the API states them (docs/product.md §8): the scopes a call counts toward, their
// default limits, and how each scope's count after a call becomes the X-RateLimit-* headers and the
// 429 answer. The counting itself is each side's own: PostgreSQL in the server, buckets in the mock.
import { isRequestRetryCall } from "./retry-paths.ts";

export const RATE_LIMIT_SCOPES = [
  "ingest",
  "ingest_inventory",
  "orders_read",
  "requests_read",
  "returns_read",
  "webhooks",
  "events_read",
  "api_keys",
] as const;
export type RateLimitScope = (typeof RATE_LIMIT_SCOPES)[number];
export type RateLimits = Record<RateLimitScope, number>;

export const DEFAULT_RATE_LIMITS: Readonly<RateLimits> = {
  ingest: 600,
  ingest_inventory: 120,
  orders_read: 150,
  requests_read: 150,
  returns_read: 120,
  webhooks: 60,
  events_read: 120,
  api_keys: 60,
};

/** The rolling window every limit is counted over. */
export const RATE_LIMIT_WINDOW_SECONDS = 60;

export function isRateLimitScope(name: string): name is RateLimitScope {
  return (RATE_LIMIT_SCOPES as readonly string[]).includes(name);
}

/**
 * The scopes a call counts toward (path relative to /v2); empty for unlimited calls.
 *
 * The stricter scope comes first: ties in the headers are reported for it, and the SDK's throttle
 * waits for it before it reserves a slot of the wider one (a call queued on `ingest_inventory`
 * must not hold an `ingest` slot that order ingests could use). Every caller takes scopes in this
 * one order, so two-scope calls cannot deadlock anyone's waits.
 *
 * The path is matched as Express routes it, case-insensitively and with or without one trailing
 * slash: `POST /v2/Ingest/Inventory/` reaches the inventory handler, so it must count as inventory.
 */
export function scopesFor(method: string, path: string): RateLimitScope[] {
  const p = path.toLowerCase().replace(/\/$/, "");
  // A retry counts as the ingest calls it repeats, which only its handler knows (request-retry.ts).
  if (isRequestRetryCall(method, p)) return [];
  if (method.toUpperCase() === "POST" && p.startsWith("/ingest/")) {
    return p === "/ingest/inventory" ? ["ingest_inventory", "ingest"] : ["ingest"];
  }
  // Reads count whatever the method: HEAD is answered by the GET handler, and any other method
  // costs the server a 405 on the same path.
  if (p.startsWith("/webhook_subscriptions")) return ["webhooks"];
  if (p.startsWith("/orders")) return ["orders_read"];
  if (p.startsWith("/requests")) return ["requests_read"];
  if (p.startsWith("/returns") || p.startsWith("/inventory")) return ["returns_read"];
  if (p.startsWith("/events")) return ["events_read"];
  if (p.startsWith("/api_keys")) return ["api_keys"];
  return [];
}

/** One scope of a call, after the call was counted in it or refused. */
export interface ScopeCount {
  scope: RateLimitScope;
  limit: number;
  /** Calls the scope still allows in the window after this one; 0 or less when it is full. */
  remaining: number;
  /** Unix seconds at which the scope's oldest counted call leaves the window. */
  reset: number;
}

/** A call's decision: the scope its headers describe, and when a refused call may succeed. */
export interface RateDecision {
  allowed: boolean;
  /** The scope with the fewest calls remaining (the first listed on a tie): the one that binds or refused. */
  scope: RateLimitScope;
  limit: number;
  /** Never below 0; 0 for a refused call. */
  remaining: number;
  reset: number;
  /** Refused calls: unix seconds at which every full scope of the call has room again. */
  retryAt?: number;
}

/** Decides what a call's answer states from its scopes' counts (in scopesFor's order, at least one). */
export function rateDecision(allowed: boolean, counts: readonly ScopeCount[]): RateDecision {
  const first = counts[0];
  if (!first) throw new RangeError("rateDecision needs the call's scopes");
  // A full scope is full however far over (a lowered limit): it ranks as 0, and ties go to the first.
  const left = (c: ScopeCount) => Math.max(0, c.remaining);
  let binding = first;
  for (const c of counts) if (left(c) < left(binding)) binding = c;
  const decision: RateDecision = {
    allowed,
    scope: binding.scope,
    limit: binding.limit,
    remaining: allowed ? left(binding) : 0,
    reset: binding.reset,
  };
  if (!allowed) {
    // With two full scopes, a retry at the reported scope's reset would be refused by the other.
    let retryAt = binding.reset;
    for (const c of counts) if (c.remaining <= 0 && c.reset > retryAt) retryAt = c.reset;
    decision.retryAt = retryAt;
  }
  return decision;
}

export interface RateLimitHeaders {
  /** `X-RateLimit-Limit`, `X-RateLimit-Remaining` and `X-RateLimit-Reset`: on every limited answer. */
  headers: Record<string, string>;
  /** Refused calls: the whole seconds to wait (at least 1), for `Retry-After` and the problem's text. */
  retryAfterSeconds?: number;
}

export function rateLimitHeaders(decision: RateDecision, nowMs: number): RateLimitHeaders {
  const headers = {
    "X-RateLimit-Limit": String(decision.limit),
    "X-RateLimit-Remaining": String(decision.remaining),
    "X-RateLimit-Reset": String(decision.reset),
  };
  if (decision.allowed) return { headers };
  const retryAt = decision.retryAt ?? decision.reset;
  return { headers, retryAfterSeconds: Math.max(1, retryAt - Math.floor(nowMs / 1000)) };
}

/** What the 429 of a refused call states; each side throws it as its problem. */
export interface RateLimitedProblem {
  status: 429;
  code: "rate_limited";
  detail: string;
  headers: { "Retry-After": string };
}

export function rateLimitedProblem(limit: number, retryAfterSeconds: number): RateLimitedProblem {
  return {
    status: 429,
    code: "rate_limited",
    detail: `Rate limit of ${limit} calls per ${RATE_LIMIT_WINDOW_SECONDS} s exceeded. Retry in ${retryAfterSeconds} s.`,
    headers: { "Retry-After": String(retryAfterSeconds) },
  };
}
