// Accounts, and the operator's side of their keys: an account's first key, `tokens create` and
// `tokens revoke` (keys themselves: store/api-keys.ts). Authorizing a call goes through here too.
import { DEFAULT_RATE_LIMITS, PERMISSIONS, type RateLimitScope } from "@oisr/contract";
import { eq } from "drizzle-orm";
import type { Database } from "../db/client.ts";
import { accounts } from "../db/schema.ts";
import { type Access, type AccessCall, accessStatement, createAuthorizer } from "./access.ts";
import type { Account } from "./account.ts";
import { createApiKeyStore, hashToken, insertKey, OPERATOR_KEY_NAMES, writeLastUsed } from "./api-keys.ts";
import { newId } from "./ids.ts";
import { createLastUsedRecorder } from "./last-used.ts";

export { hashToken } from "./api-keys.ts";

export function createAccountStore(
  database: Database,
  rateLimits: Readonly<Record<string, number>> = DEFAULT_RATE_LIMITS,
) {
  const { db } = database;
  const keys = createApiKeyStore(database);
  // Nothing is cached, so a revoked or expired key is refused on its very next call.
  const statement = accessStatement(rateLimits);
  const authorizeCall = createAuthorizer(database, statement);
  const lastUsed = createLastUsedRecorder((used) => writeLastUsed(database, used));

  /**
   * The account and key of a live secret (null for unknown secrets and revoked ones or keys), the
   * verdict on the call (`permissions`: those that grant it, grantingPermissions'; none for a call
   * that needs none) and, for a call let through that counts toward any scope, its rate-limit
   * decision; the call is counted only if let through and allowed.
   */
  async function authorize(
    token: string,
    scopes: readonly RateLimitScope[],
    permissions: readonly string[] = [],
    nowMs = Date.now(),
  ): Promise<Access> {
    return decide({ hash: hashToken(token), scopes, permissions, nowMs });
  }

  /** authorize, for a call whose secret is already hashed. */
  async function decide(call: AccessCall): Promise<Access> {
    const access = await authorizeCall(call);
    seen(access, call.nowMs);
    return access;
  }

  /** Notes a decided call's key use (last_used_at). */
  function seen(access: Access, nowMs: number): void {
    // A call that authenticated, whether or not its key may make it; an expired key did not.
    if (access.verdict === "ok" || access.verdict === "forbidden") {
      lastUsed.seen(access.key.id, access.key.lastUsedAtMs, nowMs);
    }
  }

  async function exists(accountId: string): Promise<boolean> {
    const found = await db.select({ id: accounts.id }).from(accounts).where(eq(accounts.id, accountId));
    return found.length > 0;
  }

  return {
    /** A new account and its first key, holding every permission; the secret is shown this once. */
    async createAccount(
      name: string,
    ): Promise<{ account_id: string; name: string; token: string; api_key_id: string }> {
      const id = newId("acc");
      const { key, secret } = await db.transaction(async (tx) => {
        await tx.insert(accounts).values({ id, name });
        return insertKey(
          database,
          {
            accountId: id,
            name: OPERATOR_KEY_NAMES.account,
            permissions: PERMISSIONS,
            expiresAtMs: null,
            createdBy: null,
          },
          Date.now(),
          tx,
        );
      });
      return { account_id: id, name, token: secret, api_key_id: key.id };
    },

    /** A new key holding every permission (`oisr-server tokens create`); null for an unknown account. */
    async createToken(accountId: string): Promise<{ token: string; api_key_id: string } | null> {
      if (!(await exists(accountId))) return null;
      const { key, secret } = await keys.insert({
        accountId,
        name: OPERATOR_KEY_NAMES.token,
        permissions: PERMISSIONS,
        expiresAtMs: null,
        createdBy: null,
      });
      return { token: secret, api_key_id: key.id };
    },

    /**
     * Revokes the key a secret belongs to, with all its secrets: the operator's break-glass, allowed
     * for the account's last admin key too. False if the secret is unknown or its key already revoked.
     */
    revokeToken: (token: string): Promise<boolean> => keys.revokeBySecret(token),

    exists,

    async setRateLimits(accountId: string, limits: Record<string, number> | null): Promise<boolean> {
      const updated = await db
        .update(accounts)
        .set({ rateLimits: limits })
        .where(eq(accounts.id, accountId))
        .returning({ id: accounts.id });
      return updated.length > 0;
    },

    authorize,
    authorizeCall: decide,

    /**
     * The access statement for a caller that decides access inside a statement of its own (the
     * ingest path stores the calls let through in the same round trip, queue/accept.ts); `seen`
     * must then be told of each decided call.
     */
    statement,
    seen,

    /** The account a live secret of a live, unexpired key belongs to, or null. */
    async authenticate(token: string): Promise<Account | null> {
      const access = await authorize(token, []);
      return access.verdict === "ok" ? access.account : null;
    },

    /** Writes the queued last_used_at values; call before closing the database. */
    flush: () => lastUsed.flush(),
  };
}

export type AccountStore = ReturnType<typeof createAccountStore>;
