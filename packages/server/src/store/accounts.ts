// Accounts and their API tokens. Tokens are stored only as SHA-256 hashes.
import { hash, timingSafeEqual } from "node:crypto";
import { and, eq, isNull, sql } from "drizzle-orm";
import type { Database } from "../db/client.ts";
import { accounts, apiTokens } from "../db/schema.ts";
import { createBatcher } from "./batcher.ts";
import { newId, newToken } from "./ids.ts";

export interface Account {
  id: string;
  name: string;
  rateLimits: Record<string, number> | null;
}

export function hashToken(token: string): string {
  // One-shot crypto.hash: no Hash object per call (it runs on every authenticated call).
  return hash("sha256", token, "hex");
}

export function createAccountStore(database: Database) {
  const { db } = database;

  // Concurrent calls are authenticated with one query per batch (see store/batcher.ts). Nothing is
  // cached, so a revoked token is refused on its very next call.
  const lookup = createBatcher<string, Account | null>(
    async (hashes) => {
      const unique = [...new Set(hashes)];
      // One array parameter (hex hashes need no escaping): one statement text for every batch size.
      const rows = await database.rows<{
        hash: string;
        id: string;
        name: string;
        rate_limits: Record<string, number> | null;
      }>(
        sql`select t.token_hash as hash, a.id, a.name, a.rate_limits
              from api_tokens t join accounts a on a.id = t.account_id
             where t.token_hash = any(${`{${unique.join(",")}}`}::text[]) and t.revoked_at is null`,
      );
      const byHash = new Map(rows.map((r) => [r.hash, r]));
      return hashes.map((hash) => {
        const row = byHash.get(hash);
        // The index lookup already matched; the constant-time compare guards against any collation surprise.
        if (!row || !timingSafeEqual(Buffer.from(row.hash), Buffer.from(hash))) return null;
        return { id: row.id, name: row.name, rateLimits: row.rate_limits };
      });
    },
    { maxItems: 1000, concurrency: 2 },
  );
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

    /** The account a live token belongs to, or null for unknown and revoked tokens. */
    authenticate(token: string): Promise<Account | null> {
      return lookup(hashToken(token));
    },
  };
}

export type AccountStore = ReturnType<typeof createAccountStore>;
