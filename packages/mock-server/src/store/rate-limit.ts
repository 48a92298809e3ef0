// Per-account rolling 60-second limits by scope, counted in one-second buckets exactly as the
// server's `oisr_rate_limit_take_many` does: a call is taken for every scope or for none. What the
// counts mean for the answer (the scope reported, the headers, the 429) is @oisr/contract's.
import {
  type RateDecision,
  type RateLimitScope,
  rateDecision,
  type ScopeCount,
  RATE_LIMIT_WINDOW_SECONDS as WINDOW_SECONDS,
} from "@oisr/contract/rate-limits";

// By subpath: the mock's public types are these, and its declaration build maps only this module.
export {
  DEFAULT_RATE_LIMITS,
  RATE_LIMIT_SCOPES,
  type RateLimitScope,
  type RateLimits,
  scopesFor,
} from "@oisr/contract/rate-limits";

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

  /** Counts a call toward `scopes` (in scopesFor's order) if every one has room. */
  take(scopes: { scope: RateLimitScope; limit: number }[], nowMs: number): RateDecision {
    const second = Math.floor(nowMs / 1000);
    const counts: ScopeCount[] = scopes.map(({ scope, limit }) => {
      let used = 0;
      let oldest = second;
      for (const [s, count] of this.#scope(scope, second)) {
        used += count;
        if (s < oldest) oldest = s;
      }
      return { scope, limit, remaining: limit - used, reset: oldest + WINDOW_SECONDS };
    });
    const allowed = counts.every((c) => c.remaining > 0);
    if (allowed) {
      for (const c of counts) {
        const buckets = this.#scope(c.scope, second);
        buckets.set(second, (buckets.get(second) ?? 0) + 1);
        c.remaining--;
      }
    }
    return rateDecision(allowed, counts);
  }

  /**
   * Counts `count` calls toward each scope if every one has room for its count, or none (a retry
   * charged by its handler: @oisr/contract's retryScopes and bulkRetryCharge), as the server's
   * store/rate-limit-charge.ts does. A scope without room for its whole count is reported full.
   */
  charge(charges: { scope: RateLimitScope; limit: number; count: number }[], nowMs: number): RateDecision {
    const second = Math.floor(nowMs / 1000);
    const counts = charges.map(({ scope, limit, count }) => {
      let used = 0;
      let oldest = second;
      for (const [s, n] of this.#scope(scope, second)) {
        used += n;
        if (s < oldest) oldest = s;
      }
      return { scope, limit, count, remaining: limit - used - count, reset: oldest + WINDOW_SECONDS };
    });
    const allowed = counts.every((c) => c.remaining >= 0);
    if (allowed) {
      for (const c of counts) {
        const buckets = this.#scope(c.scope, second);
        buckets.set(second, (buckets.get(second) ?? 0) + c.count);
      }
    }
    return rateDecision(
      allowed,
      counts.map(({ scope, limit, remaining, reset }): ScopeCount => ({ scope, limit, remaining, reset })),
    );
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
