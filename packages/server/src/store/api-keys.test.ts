// The key store: listing, rotation (each replaced secret keeps its own end), revocation (final,
// with every secret) and the last admin key, which the API may not revoke even when two calls
// revoke the last two admin keys at once from two processes. PGlite, or PostgreSQL when
// DATABASE_URL is set (two pools there, as two server processes have).
import { PERMISSIONS, secretPrefix, toApiKey } from "@oisr/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Database, openDatabase, sql } from "../db/client.ts";
import { freshDatabaseEnv } from "../webhooks/test-support.ts";
import { type AccountStore, createAccountStore } from "./accounts.ts";
import { type ApiKeyStore, createApiKeyStore, hashToken } from "./api-keys.ts";

let first: Database;
let second: Database;
let drop: () => Promise<void>;
let accounts: AccountStore;
let keys: ApiKeyStore;
/** The same store over the second pool: another server process. */
let elsewhere: ApiKeyStore;

beforeAll(async () => {
  const fresh = await freshDatabaseEnv();
  drop = fresh.drop;
  first = await openDatabase({ databaseUrl: fresh.env.DATABASE_URL, dataDir: "memory://" });
  second = fresh.env.DATABASE_URL ? await openDatabase({ databaseUrl: fresh.env.DATABASE_URL }) : first;
  accounts = createAccountStore(first);
  keys = createApiKeyStore(first);
  elsewhere = createApiKeyStore(second);
});

afterAll(async () => {
  if (second !== first) await second?.close();
  await first?.close();
  await drop?.();
});

const newKey = (
  accountId: string,
  permissions: readonly string[] = PERMISSIONS,
  expiresAtMs: number | null = null,
) => keys.insert({ accountId, name: "k", permissions, expiresAtMs, createdBy: null });

async function secretEnds(keyId: string): Promise<(number | null)[]> {
  const rows = await first.rows<{ ends: number | null }>(
    sql`select extract(epoch from expires_at)::float8 * 1000 as ends from api_tokens
         where key_id = ${keyId} order by created_at, token_hash`,
  );
  return rows.map((r) => (r.ends === null ? null : Number(r.ends)));
}

describe("API key store", () => {
  it("makes an account's first key with every permission, and lists keys newest first", async () => {
    const a = await accounts.createAccount("listing");
    const admin = await keys.get(a.account_id, a.api_key_id);
    expect(admin).toMatchObject({
      name: "Admin (created with the account)",
      permissions: [...PERMISSIONS],
      prefix: secretPrefix(a.token),
      createdBy: null,
      expiresAt: null,
      revokedAt: null,
    });
    const second = await keys.insert({
      accountId: a.account_id,
      name: "poller",
      permissions: ["returns:read", "orders:read"],
      expiresAtMs: Date.now() + 86_400_000,
      createdBy: a.api_key_id,
    });
    expect(second.key).toMatchObject({
      createdBy: a.api_key_id,
      permissions: ["returns:read", "orders:read"],
    });
    expect(second.secret).toMatch(/^oisr_[A-Za-z0-9_-]{43}$/);
    const listed = await keys.list(a.account_id, null, 10);
    expect(listed.map((k) => k.id)).toEqual([second.key.id, a.api_key_id]);
    expect((await keys.list(a.account_id, second.key.id, 10)).map((k) => k.id)).toEqual([a.api_key_id]);
    // Another account's key is not this account's.
    const b = await accounts.createAccount("other");
    expect(await keys.get(b.account_id, a.api_key_id)).toBeUndefined();
    expect(await keys.list(b.account_id, null, 10)).toHaveLength(1);
  });

  it("rotates: a new secret and prefix, the old secret ends after the overlap, earlier ones keep their end", async () => {
    const a = await accounts.createAccount("rotation");
    // Later than the account's first secret, which secretEnds would otherwise order by its hash when
    // both fall in one millisecond (2 runs in 3 failed so on PostgreSQL).
    const t0 = Date.now() + 5;
    const first = await keys.rotate(a.account_id, a.api_key_id, 3_600_000, t0);
    if (first.outcome !== "rotated") throw new Error(first.outcome);
    expect(first.key).toMatchObject({
      prefix: secretPrefix(first.secret),
      rotatedAt: t0,
      previousSecretExpiresAt: t0 + 3_600_000,
    });
    expect(first.secret).not.toBe(a.token);
    const second = await keys.rotate(a.account_id, a.api_key_id, 60_000, t0 + 1000);
    if (second.outcome !== "rotated") throw new Error(second.outcome);
    // The first secret keeps its hour; the second ends a minute after its replacement; the third is current.
    expect(await secretEnds(a.api_key_id)).toEqual([t0 + 3_600_000, t0 + 61_000, null]);
    expect(second.key.previousSecretExpiresAt).toBe(t0 + 3_600_000);
    expect(toApiKey(second.key, t0 + 2000).previous_secret_expires_at).toBe(
      new Date(t0 + 3_600_000).toISOString(),
    );
    // Once every replaced secret has ended, the API shows none.
    expect(toApiKey(second.key, t0 + 3_600_000).previous_secret_expires_at).toBeNull();
  });

  it("refuses to rotate a revoked or an expired key, and to revoke a key twice; an expired key may be revoked", async () => {
    const a = await accounts.createAccount("inactive");
    const expired = await newKey(a.account_id, ["orders:read"], Date.now() - 1);
    expect(await keys.rotate(a.account_id, expired.key.id, 0)).toMatchObject({ outcome: "inactive" });
    expect(await keys.revoke(a.account_id, expired.key.id, { keepLastAdmin: true })).toMatchObject({
      outcome: "revoked",
    });
    expect(await keys.revoke(a.account_id, expired.key.id, { keepLastAdmin: true })).toMatchObject({
      outcome: "inactive",
    });
    expect(await keys.rotate(a.account_id, expired.key.id, 0)).toMatchObject({ outcome: "inactive" });
    expect(await keys.rotate(a.account_id, "key_01JQ3V0B7ZQ5M8E4W2T6Y9R1KD", 0)).toEqual({
      outcome: "not_found",
    });
  });

  it("revokes a key with every secret of it, so servers reading only the secrets refuse it too", async () => {
    const a = await accounts.createAccount("secrets");
    const other = await newKey(a.account_id);
    const rotated = await keys.rotate(a.account_id, other.key.id, 3_600_000);
    if (rotated.outcome !== "rotated") throw new Error(rotated.outcome);
    const result = await keys.revoke(a.account_id, other.key.id, { keepLastAdmin: true });
    expect(result).toMatchObject({ outcome: "revoked", key: { id: other.key.id } });
    const live = await first.rows<{ n: number }>(
      sql`select count(*)::int as n from api_tokens where key_id = ${other.key.id} and revoked_at is null`,
    );
    expect(live[0]?.n).toBe(0);
    for (const secret of [other.secret, rotated.secret]) {
      expect((await accounts.authorize(secret, [])).verdict).toBeNull();
    }
  });

  it("keeps the account's last active admin key through the API, not through an operator", async () => {
    const a = await accounts.createAccount("last admin");
    const reader = await newKey(a.account_id, ["orders:read"]);
    const expiredAdmin = await newKey(a.account_id, PERMISSIONS, Date.now() - 1);
    // Neither a key without api_keys:write nor an expired admin key counts as the admin that remains.
    expect(await keys.revoke(a.account_id, a.api_key_id, { keepLastAdmin: true })).toMatchObject({
      outcome: "last_admin",
      key: { id: a.api_key_id, revokedAt: null },
    });
    // Any other key goes.
    expect(await keys.revoke(a.account_id, reader.key.id, { keepLastAdmin: true })).toMatchObject({
      outcome: "revoked",
    });
    expect(await keys.revoke(a.account_id, expiredAdmin.key.id, { keepLastAdmin: true })).toMatchObject({
      outcome: "revoked",
    });
    // Break-glass: oisr-server keys revoke / tokens revoke.
    expect(await keys.revoke(null, a.api_key_id, { keepLastAdmin: false })).toMatchObject({
      outcome: "revoked",
    });
    expect(await accounts.authenticate(a.token)).toBeNull();
  });

  it("revokes one of the last two admin keys when both are revoked at once, from two processes, round after round", async () => {
    for (let round = 0; round < 8; round++) {
      const a = await accounts.createAccount(`race ${round}`);
      const other = await newKey(a.account_id);
      const results = await Promise.all([
        keys.revoke(a.account_id, a.api_key_id, { keepLastAdmin: true }),
        elsewhere.revoke(a.account_id, other.key.id, { keepLastAdmin: true }),
      ]);
      expect(results.map((r) => r.outcome).sort()).toEqual(["last_admin", "revoked"]);
      const active = await first.rows<{ n: number }>(
        sql`select count(*)::int as n from api_keys where account_id = ${a.account_id} and revoked_at is null`,
      );
      expect(active[0]?.n).toBe(1);
    }
  });

  it("revokes the key of a token for oisr-server tokens revoke, false for an unknown token or a second time", async () => {
    const a = await accounts.createAccount("tokens");
    const created = await accounts.createToken(a.account_id);
    expect(created?.api_key_id).toMatch(/^key_[0-9A-HJKMNP-TV-Z]{26}$/);
    expect(await keys.get(a.account_id, created?.api_key_id as string)).toMatchObject({
      name: "Token made with oisr-server tokens create",
      permissions: [...PERMISSIONS],
    });
    expect(await accounts.revokeToken(created?.token as string)).toBe(true);
    expect(await accounts.revokeToken(created?.token as string)).toBe(false);
    expect(await accounts.revokeToken("oisr_unknown")).toBe(false);
    expect(await keys.get(a.account_id, created?.api_key_id as string)).toMatchObject({
      revokedAt: expect.any(Number),
    });
    expect(hashToken(a.token)).toMatch(/^[0-9a-f]{64}$/);
    expect(await accounts.createToken("acc_missing")).toBeNull();
  });
});
