// Rolling 60 s rate limits, counted in the database so every process on it shares them. Calls are
// counted in groups (one account, one set of scopes) by oisr_rate_limit_take_many, which
// oisr_authorize calls for every group of a batch (store/access.ts); this file turns a group's
// counts into each call's decision.

export interface RateDecision {
  allowed: boolean;
  /** The scope reported: the one with the fewest calls remaining, or the one that refused. */
  scope: string;
  limit: number;
  remaining: number;
  /** Unix seconds at which the oldest counted call leaves the window. */
  reset: number;
}

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
  const perScope = rows.map((r) => ({
    scope: r.scope,
    limit: Number(r.lim),
    // A call let through counts itself and those before it in the group.
    remaining: allowed
      ? Number(r.lim) - Number(r.used) - (i + 1)
      : Math.max(0, Number(r.lim) - Number(r.used) - Number(r.allowed)),
    reset: Number(r.oldest) + 60,
  }));
  // Report the scope with the fewest calls remaining: the one that binds (or refused).
  const binding = perScope.reduce((a, b) => (b.remaining < a.remaining ? b : a));
  return {
    allowed,
    scope: binding.scope,
    limit: binding.limit,
    remaining: allowed ? Math.max(0, binding.remaining) : 0,
    reset: binding.reset,
  };
}
