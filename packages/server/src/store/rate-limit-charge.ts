// Charging a call to rate-limit scopes from its handler, for calls whose scopes depend on what they
// act on: a retry counts as the ingest calls it repeats (an inventory request also in
// `ingest_inventory`; a bulk call once per request), which only its handler knows
// (@oisr/contract's retryScopes and bulkRetryCharge, docs/decisions/014). The access middleware
// counts every other call. Same function, same buckets, same answers as there.
import { type RateDecision, type RateLimitScope, rateDecision, type ScopeCount } from "@oisr/contract";
import { sql } from "drizzle-orm";
import type { Database } from "../db/client.ts";
import type { Account } from "./account.ts";
import type { ScopeRow } from "./rate-limits.ts";

/** `count` calls toward `scope`. */
export interface Charge {
  scope: RateLimitScope;
  count: number;
}

class Refused extends Error {
  readonly decision: RateDecision;
  constructor(decision: RateDecision) {
    super("rate limited");
    this.decision = decision;
  }
}

export type ChargeRateLimits = (account: Account, charges: readonly Charge[]) => Promise<RateDecision>;

/**
 * All or nothing: every scope takes its count, or the transaction rolls back and nothing counts
 * (a refused call counts toward no scope). Scopes are taken in the order given, scopesFor's
 * (stricter first), as every other call takes them, so no two calls wait on each other's locks.
 */
export function createRateLimitCharge(
  database: Database,
  defaults: Readonly<Record<string, number>>,
): ChargeRateLimits {
  return async (account, charges) => {
    const nowMs = Date.now();
    const limitOf = (scope: string) => account.rateLimits?.[scope] ?? (defaults[scope] as number);
    try {
      return await database.db.transaction(async (tx) => {
        const counts: ScopeCount[] = [];
        let refused = false;
        for (const { scope, count } of charges) {
          const [row] = await database.rows<ScopeRow>(
            sql`select * from oisr_rate_limit_take_many(${account.id}, ${`{${scope}}`}::text[],
                  ${`{${limitOf(scope)}}`}::int[], ${count}::int, ${nowMs}::bigint)`,
            tx,
          );
          if (!row) throw new Error(`no count for scope ${scope}`);
          const took = Number(row.allowed) >= count;
          refused ||= !took;
          counts.push({
            scope,
            limit: Number(row.lim),
            // Below zero when the scope lacks room for the whole count: it is full for this call.
            remaining: Number(row.lim) - Number(row.used) - count,
            reset: Number(row.oldest) + 60,
          });
        }
        const decision = rateDecision(!refused, counts);
        if (refused) throw new Refused(decision);
        return decision;
      });
    } catch (err) {
      if (err instanceof Refused) return err.decision;
      throw err;
    }
  };
}
