// Authentication and rate limiting of a call in one statement, oisr_authorize (drizzle/0006), run
// once per batch of concurrent calls (store/batcher.ts): a call waits for one round trip before its
// handler, not one for its token and another for its limits.
import { timingSafeEqual } from "node:crypto";
import { sql } from "drizzle-orm";
import type { Database } from "../db/client.ts";
import type { Account } from "./account.ts";
import { createBatcher } from "./batcher.ts";
import { decide, type RateDecision, type ScopeRow } from "./rate-limits.ts";

export interface Access {
  /** Null for unknown and revoked tokens. */
  account: Account | null;
  /** Null when the call counts toward no scope, or when its token is not live (it counts toward nothing). */
  decision: RateDecision | null;
}

export interface AccessCall {
  /** SHA-256 hex of the bearer token. */
  hash: string;
  /** The scopes the call counts toward, in the order ties are reported in (scopesFor's). */
  scopes: readonly string[];
  /** A batch counts its calls at its first call's time. */
  nowMs: number;
}

/** A row per authenticated call (`i`, 1-based, set), or one of take_many's rows for group `grp`. */
type AuthorizeRow =
  | {
      i: number;
      hash: string;
      account_id: string;
      name: string;
      rate_limits: Record<string, number> | null;
      grp: number;
      pos: number;
    }
  | (ScopeRow & { i: null; grp: number });

/** Batches concurrent calls; `defaults` are the deployment's limits, which accounts may override. */
export function createAuthorizer(
  database: Database,
  defaults: Readonly<Record<string, number>>,
): (call: AccessCall) => Promise<Access> {
  const defaultsJson = JSON.stringify(defaults);

  async function run(calls: AccessCall[]): Promise<Access[]> {
    // Array literals, one parameter each, so the statement has one text for every batch size.
    // Hashes are hex; scope sets are quoted since they hold commas and may be empty.
    const hashes = `{${calls.map((c) => c.hash).join(",")}}`;
    const scopeSets = `{${calls.map((c) => `"${c.scopes.join(",")}"`).join(",")}}`;
    const nowMs = (calls[0] as AccessCall).nowMs;
    // The statement commits without waiting for its WAL flush (synchronous_commit off for this
    // transaction only): counters are not data, and a database crash forgetting the last moment of
    // counts lets a few extra calls through at worst. The ingest path then waits for one durable
    // commit per call (its request row), not two. See docs/decisions/005.
    const rows = await database.rows<AuthorizeRow>(
      sql`select t.* from set_config('synchronous_commit', 'off', true) as local_setting,
            oisr_authorize(${hashes}::text[], ${scopeSets}::text[], ${defaultsJson}::jsonb, ${nowMs}::bigint) as t`,
    );
    const groups = new Map<number, ScopeRow[]>();
    for (const row of rows) {
      if (row.i === null) groups.set(row.grp, [...(groups.get(row.grp) ?? []), row]);
    }
    const out: Access[] = calls.map(() => ({ account: null, decision: null }));
    for (const row of rows) {
      if (row.i === null) continue;
      const call = calls[row.i - 1];
      // The index lookup already matched; the constant-time compare guards against any collation surprise.
      if (!call || !timingSafeEqual(Buffer.from(row.hash), Buffer.from(call.hash))) continue;
      const group = groups.get(row.grp);
      out[row.i - 1] = {
        account: { id: row.account_id, name: row.name, rateLimits: row.rate_limits },
        decision: group ? decide(group, row.pos) : null,
      };
    }
    return out;
  }

  return createBatcher(run, { maxItems: 1000, concurrency: 2 });
}
