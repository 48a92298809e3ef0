// Rolling 60 s rate limits, counted in the database so every process on it shares them.
// Concurrent calls are taken in groups: one SQL call per (account, scopes) per batch.
import { sql } from "drizzle-orm";
import type { Database } from "../db/client.ts";
import { createBatcher } from "./batcher.ts";

export interface RateDecision {
  allowed: boolean;
  /** The scope reported: the one with the fewest calls remaining, or the one that refused. */
  scope: string;
  limit: number;
  remaining: number;
  /** Unix seconds at which the oldest counted call leaves the window. */
  reset: number;
}

interface Take {
  accountId: string;
  scopes: { scope: string; limit: number }[];
  nowMs: number;
}

interface ScopeRow {
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

export function createRateLimitStore(database: Database) {
  async function takeGroup(group: Take[]): Promise<RateDecision[]> {
    const first = group[0] as Take;
    // Array literals, one parameter each: scope names are fixed identifiers and limits integers.
    const names = `{${first.scopes.map((s) => s.scope).join(",")}}`;
    const limits = `{${first.scopes.map((s) => Math.trunc(s.limit)).join(",")}}`;
    // The statement commits without waiting for its WAL flush (synchronous_commit off for this
    // transaction only): counters are not data, and a database crash forgetting the last moment of
    // counts lets a few extra calls through at worst. The ingest path then waits for one durable
    // commit per call (its request row), not two. See docs/decisions/005.
    const rows = await database.rows<ScopeRow>(
      sql`select t.* from set_config('synchronous_commit', 'off', true) as local_setting,
            oisr_rate_limit_take_many(${first.accountId}, ${names}::text[], ${limits}::int[], ${group.length}::int, ${first.nowMs}::bigint) as t`,
    );
    return group.map((_, i) => decide(rows, i));
  }

  const take = createBatcher<Take, RateDecision>(
    async (items) => {
      const groups = new Map<string, number[]>();
      items.forEach((t, i) => {
        const key = `${t.accountId}|${t.scopes.map((s) => `${s.scope}:${s.limit}`).join(",")}`;
        groups.set(key, [...(groups.get(key) ?? []), i]);
      });
      const out: RateDecision[] = new Array(items.length);
      await Promise.all(
        [...groups.values()].map(async (indexes) => {
          const decisions = await takeGroup(indexes.map((i) => items[i] as Take));
          indexes.forEach((idx, j) => {
            out[idx] = decisions[j] as RateDecision;
          });
        }),
      );
      return out;
    },
    { maxItems: 1000, concurrency: 2 },
  );

  return {
    /** Counts one call against every scope, or against none if any scope is exhausted. */
    take(
      accountId: string,
      scopes: { scope: string; limit: number }[],
      nowMs = Date.now(),
    ): Promise<RateDecision> {
      return take({ accountId, scopes, nowMs });
    },
  };
}

export type RateLimitStore = ReturnType<typeof createRateLimitStore>;
