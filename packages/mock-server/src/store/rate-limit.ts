// Per-account rolling 60-second limits by scope, counted in one-second buckets exactly as the
// server's `oisr_rate_limit_take` does: a call is taken for every scope or for none, and the
// headers describe the scope with the fewest calls left (or the one that refused the call).

import {
  DEFAULT_RATE_LIMITS as DEFAULTS,
  RATE_LIMIT_SCOPES as SCOPES,
  scopesFor as scopes,
} from "@oisr/contract";

// The server's definitions (CONTRACT section 8), declared here again with explicit types because
// the declaration bundler cannot re-export them from the bundled @oisr/domain.
export type RateLimitScope =
  | "ingest"
  | "ingest_inventory"
  | "orders_read"
  | "requests_read"
  | "returns_read"
  | "webhooks";
export const RATE_LIMIT_SCOPES: readonly RateLimitScope[] = SCOPES;
export const DEFAULT_RATE_LIMITS: Readonly<Record<RateLimitScope, number>> = DEFAULTS;
export const scopesFor: (method: string, path: string) => RateLimitScope[] = scopes;
export type RateLimits = Record<RateLimitScope, number>;

const WINDOW_SECONDS = 60;

export interface RateDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Unix seconds at which the oldest counted call leaves the window. */
  reset: number;
}

/** One account's buckets: scope → (unix second → calls allowed in it). */
export class RateWindows {
  readonly #buckets = new Map<RateLimitScope, Map<number, number>>();

  #scope(scope: RateLimitScope, second: number): Map<number, number> {
    let buckets = this.#buckets.get(scope);
    if (!buckets) {
      buckets = new Map();
      this.#buckets.set(scope, buckets);
    }
    for (const s of buckets.keys()) if (s <= second - WINDOW_SECONDS) buckets.delete(s);
    return buckets;
  }

  take(scopes: { scope: RateLimitScope; limit: number }[], nowMs: number): RateDecision {
    const second = Math.floor(nowMs / 1000);
    const used: number[] = [];
    const oldest: number[] = [];
    let ok = true;
    for (const { scope, limit } of scopes) {
      const buckets = this.#scope(scope, second);
      let sum = 0;
      let min = second;
      for (const [s, count] of buckets) {
        sum += count;
        if (s < min) min = s;
      }
      used.push(sum);
      oldest.push(min);
      if (sum >= limit) ok = false;
    }
    if (ok) {
      scopes.forEach(({ scope }, i) => {
        const buckets = this.#scope(scope, second);
        buckets.set(second, (buckets.get(second) ?? 0) + 1);
        used[i] = (used[i] ?? 0) + 1;
      });
    }
    let best = 0;
    scopes.forEach(({ limit }, i) => {
      const bestLimit = scopes[best]?.limit ?? 0;
      if (limit - (used[i] ?? 0) < bestLimit - (used[best] ?? 0)) best = i;
    });
    if (!ok)
      best = Math.max(
        0,
        scopes.findIndex(({ limit }, i) => (used[i] ?? 0) >= limit),
      );
    const limit = scopes[best]?.limit ?? 0;
    return {
      allowed: ok,
      limit,
      remaining: Math.max(limit - (used[best] ?? 0), 0),
      reset: (oldest[best] ?? second) + WINDOW_SECONDS,
    };
  }

  /** Fills a scope's window as if `limit` calls had just been allowed (the `exhaustRateLimit` scenario). */
  exhaust(scope: RateLimitScope, limit: number, nowMs: number): void {
    const second = Math.floor(nowMs / 1000);
    const buckets = this.#scope(scope, second);
    let sum = 0;
    for (const count of buckets.values()) sum += count;
    if (sum < limit) buckets.set(second, (buckets.get(second) ?? 0) + (limit - sum));
  }

  clear(): void {
    this.#buckets.clear();
  }
}
