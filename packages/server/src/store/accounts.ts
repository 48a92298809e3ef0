// Accounts and their API tokens. Tokens are stored only as SHA-256 hashes.
import { hash } from "node:crypto";
import { DEFAULT_RATE_LIMITS, type RateLimitScope } from "@oisr/contract";
import { and, eq, isNull } from "drizzle-orm";
import type { Database } from "../db/client.ts";
import { accounts, apiTokens } from "../db/schema.ts";
import { type Access, createAuthorizer } from "./access.ts";
import type { Account } from "./account.ts";
import { newId, newToken } from "./ids.ts";

export function hashToken(token: string): string {
  // One-shot crypto.hash: no Hash object per call (it runs on every authenticated call).
  return hash("sha256", token, "hex");
}

export function createAccountStore(
  database: Database,
  rateLimits: Readonly<Record<string, number>> = DEFAULT_RATE_LIMITS,
) {
  const { db } = database;
  // Nothing is cached, so a revoked token is refused on its very next call.
  const authorizeCall = createAuthorizer(database, rateLimits);
  const authorize = (token: string, scopes: readonly RateLimitScope[], nowMs = Date.now()): Promise<Access> =>
    authorizeCall({ hash: hashToken(token), scopes, nowMs });

  return {
    async createAccount(name: string): Promise<{ account_id: string; name: string; token: string }> {
      const id = newId("acc");
      const token = newToken();
      await db.transaction(async (tx) => {
        await tx.insert(accounts).values({ id, name });
        await tx.insert(apiTokens).values({ tokenHash: hashToken(token), accountId: id });
      });
      return { account_id: id, name, token };
    },

    async createToken(accountId: string): Promise<{ token: string } | null> {
      const found = await db.select({ id: accounts.id }).from(accounts).where(eq(accounts.id, accountId));
      if (found.length === 0) return null;
      const token = newToken();
      await db.insert(apiTokens).values({ tokenHash: hashToken(token), accountId });
      return { token };
    },

    async revokeToken(token: string): Promise<boolean> {
      const revoked = await db
        .update(apiTokens)
        .set({ revokedAt: new Date().toISOString() })
        .where(and(eq(apiTokens.tokenHash, hashToken(token)), isNull(apiTokens.revokedAt)))
        .returning({ hash: apiTokens.tokenHash });
      return revoked.length > 0;
    },

    async setRateLimits(accountId: string, limits: Record<string, number> | null): Promise<boolean> {
      const updated = await db
        .update(accounts)
        .set({ rateLimits: limits })
        .where(eq(accounts.id, accountId))
        .returning({ id: accounts.id });
      return updated.length > 0;
    },

    /**
     * The account a live token belongs to (null for unknown and revoked tokens) and, if the call
     * counts toward any scope, its rate-limit decision; the call is counted only if allowed.
     */
    authorize,

    /** The account a live token belongs to, or null for unknown and revoked tokens. */
    async authenticate(token: string): Promise<Account | null> {
      return (await authorize(token, [])).account;
    },
  };
}

export type AccountStore = ReturnType<typeof createAccountStore>;
