// API keys and their secrets (decision 013): every statement on api_keys and api_tokens but the
// authorize statement (drizzle/0011, oisr_authorize_keys; store/access.ts) lives here. A key's
// secrets are its api_tokens rows, stored as SHA-256 hashes only: the current one, and those
// replaced by rotation, each until its own end. The rules and texts are @oisr/contract's; this
// module only stores. Instants travel as epoch milliseconds, so both drivers hand back numbers.
import { hash } from "node:crypto";
import {
  ADMIN_PERMISSION,
  apiKeyStatus,
  isActiveAdmin,
  type StoredApiKey,
  secretPrefix,
} from "@oisr/contract";
import { type SQL, sql } from "drizzle-orm";
import type { Database, Executor } from "../db/client.ts";
import { newId, newToken } from "./ids.ts";

/** Names of the keys an operator makes with oisr-server (`created_by` null). */
export const OPERATOR_KEY_NAMES = {
  account: "Admin (created with the account)",
  token: "Token made with oisr-server tokens create",
} as const;

export function hashToken(token: string): string {
  // One-shot crypto.hash: no Hash object per call (it runs on every authenticated call).
  return hash("sha256", token, "hex");
}

/** A key as stored, with its account. */
export type KeyRow = StoredApiKey & { accountId: string };

export interface NewKey {
  accountId: string;
  name: string;
  permissions: readonly string[];
  expiresAtMs: number | null;
  /** The calling key; null for an operator. */
  createdBy: string | null;
}

const at = (ms: number | null): SQL =>
  ms === null ? sql`null::timestamptz` : sql`to_timestamp(${ms} / 1000.0)`;

/** Epoch ms of a timestamptz, as a double (a number on both drivers), or null. */
const msOf = (column: string): SQL => sql.raw(`extract(epoch from ${column})::float8 * 1000`);

/** The columns of `api_keys k` a KeyRow is read from; the previous secret's end is its replaced secrets' latest. */
const KEY_COLUMNS = sql`k.id, k.account_id, k.name, array_to_string(k.permissions, ',') as permissions, k.prefix,
  ${msOf("k.created_at")} as created_at, k.created_by, ${msOf("k.expires_at")} as expires_at,
  ${msOf("k.last_used_at")} as last_used_at, ${msOf("k.rotated_at")} as rotated_at,
  ${msOf("k.revoked_at")} as revoked_at,
  (select ${msOf("max(t.expires_at)")} from api_tokens t where t.key_id = k.id) as previous_secret_expires_at`;

interface Row {
  id: string;
  account_id: string;
  name: string;
  /** Comma-joined: array parsing differs between drivers and pooling modes; a comma is in no permission. */
  permissions: string;
  prefix: string | null;
  created_at: number;
  created_by: string | null;
  expires_at: number | null;
  last_used_at: number | null;
  rotated_at: number | null;
  revoked_at: number | null;
  previous_secret_expires_at: number | null;
}

const num = (v: number | string | null): number | null => (v === null ? null : Number(v));

function toKey(r: Row): KeyRow {
  return {
    id: r.id,
    accountId: r.account_id,
    name: r.name,
    permissions: r.permissions === "" ? [] : r.permissions.split(","),
    prefix: r.prefix,
    createdAt: Number(r.created_at),
    createdBy: r.created_by,
    expiresAt: num(r.expires_at),
    lastUsedAt: num(r.last_used_at),
    rotatedAt: num(r.rotated_at),
    previousSecretExpiresAt: num(r.previous_secret_expires_at),
    revokedAt: num(r.revoked_at),
  };
}

/**
 * Inserts a key and its first secret in one statement (inside the caller's transaction when
 * `executor` is one), and returns them: the secret is shown this once.
 */
export async function insertKey(
  database: Database,
  key: NewKey,
  nowMs: number,
  executor?: Executor,
): Promise<{ key: KeyRow; secret: string }> {
  const id = newId("key");
  const secret = newToken();
  const [row] = await database.rows<Row>(
    sql`with k as (
          insert into api_keys (id, account_id, name, permissions, prefix, created_at, created_by, expires_at)
          values (${id}, ${key.accountId}, ${key.name}, string_to_array(${key.permissions.join(",")}, ','),
                  ${secretPrefix(secret)}, ${at(nowMs)}, ${key.createdBy}, ${at(key.expiresAtMs)})
          returning *),
        secret as (
          insert into api_tokens (token_hash, account_id, key_id, created_at)
          values (${hashToken(secret)}, ${key.accountId}, ${id}, ${at(nowMs)}))
        select ${KEY_COLUMNS} from k`,
    executor,
  );
  return { key: toKey(row as Row), secret };
}

export type RotateOutcome =
  | { outcome: "not_found" }
  | { outcome: "inactive"; key: KeyRow }
  | { outcome: "rotated"; key: KeyRow; secret: string };

export type RevokeOutcome =
  | { outcome: "not_found" }
  | { outcome: "inactive"; key: KeyRow }
  | { outcome: "last_admin"; key: KeyRow }
  | { outcome: "revoked"; key: KeyRow };

export function createApiKeyStore(database: Database) {
  const { db } = database;

  /** The key `id`, of `accountId` only when one is given (the API's calls; an operator names any key). */
  async function find(accountId: string | null, id: string, executor?: Executor, lock = false) {
    const [row] = await database.rows<Row>(
      sql`select ${KEY_COLUMNS} from api_keys k
           where k.id = ${id} ${accountId === null ? sql`` : sql`and k.account_id = ${accountId}`}
           ${lock ? sql`for update of k` : sql``}`,
      executor,
    );
    return row ? toKey(row) : undefined;
  }

  async function revoke(
    accountId: string | null,
    id: string,
    options: { keepLastAdmin: boolean },
    nowMs: number,
  ): Promise<RevokeOutcome> {
    const found = await find(accountId, id);
    if (!found) return { outcome: "not_found" };
    return db.transaction(async (tx): Promise<RevokeOutcome> => {
      // One revocation at a time per account, so two concurrent calls cannot each see the other's
      // key as the admin that remains and revoke the last two together. The second key keeps the
      // lock apart from the rate limits' (account, scope) locks.
      await database.rows(
        sql`select pg_advisory_xact_lock(hashtext(${found.accountId}), hashtext('oisr_api_keys'))`,
        tx,
      );
      const key = await find(found.accountId, id, tx, true);
      if (!key) return { outcome: "not_found" };
      if (key.revokedAt !== null) return { outcome: "inactive", key };
      if (options.keepLastAdmin && isActiveAdmin(key, nowMs)) {
        const [other] = await database.rows<{ found: boolean }>(
          sql`select exists (
                select 1 from api_keys
                 where account_id = ${key.accountId} and id <> ${key.id} and revoked_at is null
                   and (expires_at is null or expires_at > ${at(nowMs)})
                   and ${ADMIN_PERMISSION} = any(permissions)) as found`,
          tx,
        );
        if (!other?.found) return { outcome: "last_admin", key };
      }
      // Its secrets too: servers of the previous version, during a rolling deploy, only read those.
      await database.rows(
        sql`with secrets as (update api_tokens set revoked_at = ${at(nowMs)} where key_id = ${key.id} and revoked_at is null)
            update api_keys set revoked_at = ${at(nowMs)} where id = ${key.id}`,
        tx,
      );
      return { outcome: "revoked", key: (await find(key.accountId, key.id, tx)) as KeyRow };
    });
  }

  return {
    insert: (key: NewKey, nowMs = Date.now()) => insertKey(database, key, nowMs),

    get: (accountId: string | null, id: string) => find(accountId, id),

    /** Newest first; `before` is the id the previous page ended at. */
    async list(accountId: string, before: string | null, limit: number): Promise<KeyRow[]> {
      const rows = await database.rows<Row>(
        sql`select ${KEY_COLUMNS} from api_keys k
             where k.account_id = ${accountId} ${before === null ? sql`` : sql`and k.id < ${before}`}
             order by k.id desc limit ${limit}`,
      );
      return rows.map(toKey);
    },

    /**
     * A new secret for an active key. Its current secret keeps working for `overlapMs` more (ended
     * at once with 0); secrets replaced earlier keep their own end.
     */
    async rotate(accountId: string | null, id: string, overlapMs: number, nowMs = Date.now()) {
      return db.transaction(async (tx): Promise<RotateOutcome> => {
        const key = await find(accountId, id, tx, true);
        if (!key) return { outcome: "not_found" };
        if (apiKeyStatus(key, nowMs) !== "active") return { outcome: "inactive", key };
        const secret = newToken();
        await database.rows(
          sql`with replaced as (
                update api_tokens set expires_at = ${at(nowMs + overlapMs)}
                 where key_id = ${key.id} and expires_at is null and revoked_at is null),
              added as (
                insert into api_tokens (token_hash, account_id, key_id, created_at)
                values (${hashToken(secret)}, ${key.accountId}, ${key.id}, ${at(nowMs)}))
              update api_keys set prefix = ${secretPrefix(secret)}, rotated_at = ${at(nowMs)} where id = ${key.id}`,
          tx,
        );
        return { outcome: "rotated", key: (await find(key.accountId, key.id, tx)) as KeyRow, secret };
      });
    },

    /**
     * Revokes a key and every secret of it. Through the API (`keepLastAdmin`), the account's last
     * active key holding api_keys:write stays; an operator may revoke it (break-glass).
     */
    revoke: (accountId: string | null, id: string, options: { keepLastAdmin: boolean }, nowMs = Date.now()) =>
      revoke(accountId, id, options, nowMs),

    /** Revokes the key a secret belongs to (oisr-server tokens revoke); false if unknown or already revoked. */
    async revokeBySecret(secret: string, nowMs = Date.now()): Promise<boolean> {
      const [row] = await database.rows<{ key_id: string }>(
        sql`select key_id from api_tokens where token_hash = ${hashToken(secret)}`,
      );
      if (!row) return false;
      return (await revoke(null, row.key_id, { keepLastAdmin: false }, nowMs)).outcome === "revoked";
    },
  };
}

export type ApiKeyStore = ReturnType<typeof createApiKeyStore>;

/**
 * Records when keys were last used, for store/last-used.ts: one statement for any number of keys.
 * A later value never goes back (two processes may write the same key out of order).
 */
export async function writeLastUsed(database: Database, used: { id: string; atMs: number }[]): Promise<void> {
  if (used.length === 0) return;
  await database.rows(
    sql`update api_keys k set last_used_at = greatest(k.last_used_at, to_timestamp(u.at / 1000.0))
          from jsonb_to_recordset(${JSON.stringify(used.map((u) => ({ id: u.id, at: u.atMs })))}::jsonb)
            as u(id text, at float8)
         where k.id = u.id`,
  );
}
