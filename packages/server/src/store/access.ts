// Authentication, the key's permission and the rate limits of a call in one statement,
// oisr_authorize_keys (drizzle/0011), run once per batch of concurrent calls (store/batcher.ts): a
// call waits for one round trip before its handler, whatever it is refused or let through for.
// Nothing about keys is cached, so a revoked or expired key is refused on its very next call
// (decision 013).
import { timingSafeEqual } from "node:crypto";
import { type SQL, sql } from "drizzle-orm";
import type { Database } from "../db/client.ts";
import type { Account } from "./account.ts";
import { createBatcher } from "./batcher.ts";
import { decide, type RateDecision, type ScopeRow } from "./rate-limits.ts";

/**
 * What the statement decided of a call with a live secret of a live key: `ok` (let through to its
 * rate limits), `expired` (the key's `expires_at` passed), `secret_expired` (a secret replaced by
 * rotation whose overlap ended) or `forbidden` (no permission of the key grants the call).
 */
export type Verdict = "ok" | "expired" | "secret_expired" | "forbidden";

/** The key a call authenticated with. Instants are epoch ms. */
export interface AuthorizedKey {
  id: string;
  permissions: string[];
  expiresAtMs: number | null;
  /** The end of this secret, set when a rotation replaced it; null for the current secret. */
  secretExpiresAtMs: number | null;
  /** As stored: store/last-used.ts writes it at most once a minute per key and process. */
  lastUsedAtMs: number | null;
}

export type Access =
  /** An unknown or revoked secret, or a revoked key. */
  | { account: null; key: null; verdict: null; decision: null }
  | {
      account: Account;
      key: AuthorizedKey;
      verdict: Verdict;
      /** Only for `ok` calls that count toward a scope: the others count toward nothing. */
      decision: RateDecision | null;
    };

export interface AccessCall {
  /** SHA-256 hex of the bearer token. */
  hash: string;
  /** The scopes the call counts toward, in the order ties are reported in (scopesFor's). */
  scopes: readonly string[];
  /** The permissions any one of which grants the call (grantingPermissions); empty when it needs none. */
  permissions: readonly string[];
  /** A batch counts its calls at its first call's time, and judges expiry at it. */
  nowMs: number;
}

/** A row per authenticated call (`i`, 1-based, set), or one of take_many's rows for group `grp`. */
export type AuthorizeRow =
  | {
      i: number;
      hash: string;
      account_id: string;
      name: string;
      rate_limits: Record<string, number> | null;
      key_id: string;
      permissions: string;
      key_expires_at: number | null;
      secret_expires_at: number | null;
      last_used_at: number | null;
      verdict: Verdict;
      grp: number | null;
      pos: number | null;
    }
  | (ScopeRow & { i: null; grp: number });

const UNAUTHORIZED: Access = { account: null, key: null, verdict: null, decision: null };
const num = (v: number | string | null): number | null => (v === null ? null : Number(v));

/** Whether the statement let a call through: a live key allowed to make it, within its limits (counted). */
export function letThrough(access: Access): boolean {
  return access.verdict === "ok" && (access.decision === null || access.decision.allowed);
}

/**
 * The statement for a batch of calls, as the parts a larger statement embeds (queue/accept.ts stores
 * the calls it lets through in the same statement): `call` is the `oisr_authorize_keys(…)` call,
 * `read` turns its rows into each call's Access, in the calls' order.
 */
export interface AccessStatement {
  call(calls: readonly AccessCall[]): SQL;
  read(calls: readonly AccessCall[], rows: readonly AuthorizeRow[]): Access[];
}

/** `defaults` are the deployment's limits, which accounts may override. */
export function accessStatement(defaults: Readonly<Record<string, number>>): AccessStatement {
  const defaultsJson = JSON.stringify(defaults);
  // Array literals, one parameter each, so the statement has one text for every batch size.
  // Scope and permission sets are quoted since they hold commas and may be empty; neither holds a quote.
  const quoted = (sets: string[]) => `{${sets.map((s) => `"${s}"`).join(",")}}`;
  return {
    call(calls) {
      const hashes = `{${calls.map((c) => c.hash).join(",")}}`;
      const scopeSets = quoted(calls.map((c) => c.scopes.join(",")));
      const permissionSets = quoted(calls.map((c) => c.permissions.join(",")));
      const nowMs = (calls[0] as AccessCall).nowMs;
      return sql`oisr_authorize_keys(${hashes}::text[], ${scopeSets}::text[], ${permissionSets}::text[],
                                     ${defaultsJson}::jsonb, ${nowMs}::bigint)`;
    },
    read(calls, rows) {
      const groups = new Map<number, ScopeRow[]>();
      for (const row of rows) {
        if (row.i === null) groups.set(row.grp, [...(groups.get(row.grp) ?? []), row]);
      }
      const out: Access[] = calls.map(() => UNAUTHORIZED);
      for (const row of rows) {
        if (row.i === null) continue;
        const call = calls[row.i - 1];
        // The index lookup already matched; the constant-time compare guards against any collation surprise.
        if (!call || !timingSafeEqual(Buffer.from(row.hash), Buffer.from(call.hash))) continue;
        const group = row.grp === null ? undefined : groups.get(row.grp);
        out[row.i - 1] = {
          account: { id: row.account_id, name: row.name, rateLimits: row.rate_limits },
          key: {
            id: row.key_id,
            permissions: row.permissions === "" ? [] : row.permissions.split(","),
            expiresAtMs: num(row.key_expires_at),
            secretExpiresAtMs: num(row.secret_expires_at),
            lastUsedAtMs: num(row.last_used_at),
          },
          verdict: row.verdict,
          decision: group && row.pos !== null ? decide(group, row.pos) : null,
        };
      }
      return out;
    },
  };
}

/** Batches concurrent calls that only need their access decided (every call but a stored ingest call). */
export function createAuthorizer(
  database: Database,
  statement: AccessStatement,
): (call: AccessCall) => Promise<Access> {
  async function run(calls: AccessCall[]): Promise<Access[]> {
    // The statement commits without waiting for its WAL flush (synchronous_commit off for this
    // transaction only): counters are not data, and a database crash forgetting the last moment of
    // counts lets a few extra calls through at worst. See docs/decisions/005.
    const rows = await database.rows<AuthorizeRow>(
      sql`select t.* from set_config('synchronous_commit', 'off', true) as local_setting, ${statement.call(calls)} as t`,
    );
    return statement.read(calls, rows);
  }

  return createBatcher(run, { maxItems: 1000, concurrency: 2 });
}
