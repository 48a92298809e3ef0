// Rolling 60 s rate limits, counted in the database so every process on it shares them.
import { sql } from "drizzle-orm";
import type { Database } from "../db/client.ts";

export interface RateDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Unix seconds at which the oldest counted call leaves the window. */
  reset: number;
}

export function createRateLimitStore(database: Database) {
  return {
    /** Counts one call against every scope, or against none if any scope is exhausted. */
    async take(
      accountId: string,
      scopes: { scope: string; limit: number }[],
      nowMs = Date.now(),
    ): Promise<RateDecision> {
      // One array literal per parameter: scope names are fixed identifiers and limits integers,
      // and both drivers pass a literal through unchanged (drizzle would spread a JS array).
      const names = `{${scopes.map((s) => s.scope).join(",")}}`;
      const limits = `{${scopes.map((s) => Math.trunc(s.limit)).join(",")}}`;
      const [row] = await database.rows<{
        allowed: boolean;
        lim: number;
        remaining: number;
        reset: string | number;
      }>(
        sql`select * from oisr_rate_limit_take(${accountId}, ${names}::text[], ${limits}::int[], ${nowMs}::bigint)`,
      );
      if (!row) throw new Error("rate limit function returned no row");
      return {
        allowed: row.allowed,
        limit: Number(row.lim),
        remaining: Number(row.remaining),
        reset: Number(row.reset),
      };
    },
  };
}

export type RateLimitStore = ReturnType<typeof createRateLimitStore>;
