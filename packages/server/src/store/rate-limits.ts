// Rolling 60 s rate limits, counted in the database so every process on it shares them. Calls are
// counted in groups (one account, one set of scopes) by oisr_rate_limit_take_many, which
// oisr_authorize calls for every group of a batch (store/access.ts); this file turns a group's
// counts into each call's scope counts, and @oisr/contract's rateDecision into its decision.
import { type RateDecision, type RateLimitScope, rateDecision } from "@oisr/contract";

export type { RateDecision } from "@oisr/contract";

/** One scope's row of oisr_rate_limit_take_many: the calls it let through, and the counts before them. */
export interface ScopeRow {
  allowed: number;
  scope: string;
  lim: number;
  used: number;
  oldest: string | number;
}

/** The decision for the i-th call of a group of which the first `allowed` were let through. */
export function decide(rows: ScopeRow[], i: number): RateDecision {
  const allowed = i < Number(rows[0]?.allowed ?? 0);
  return rateDecision(
    allowed,
    rows.map((r) => ({
      // The scopes are those the server asked for (scopesFor's).
      scope: r.scope as RateLimitScope,
      limit: Number(r.lim),
      // A call let through counts itself and those before it in the group; a refused call counts
      // toward nothing, and the group's allowed calls are ahead of it.
      remaining: Number(r.lim) - Number(r.used) - (allowed ? i + 1 : Number(r.allowed)),
      reset: Number(r.oldest) + 60,
    })),
  );
}
