// oisr_authorize_keys through the store: one statement per batch authenticates, checks each call's
// key and permission, and counts the calls it lets through. PGlite, or PostgreSQL when DATABASE_URL
// is set (two pools there, as two server processes have).
import {
  DEFAULT_RATE_LIMITS,
  grantingPermissions,
  PERMISSIONS,
  type Permission,
  type RateLimitScope,
  scopesFor,
} from "@oisr/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Database, openDatabase, sql } from "../db/client.ts";
import { freshDatabaseEnv } from "../webhooks/test-support.ts";
import { type AccountStore, createAccountStore } from "./accounts.ts";
import { type ApiKeyStore, createApiKeyStore } from "./api-keys.ts";

const DEFAULTS = { ...DEFAULT_RATE_LIMITS, orders_read: 7 };
const INGEST: RateLimitScope[] = ["ingest"];
const INVENTORY = scopesFor("POST", "/ingest/inventory");
// The order servers before the contract's scopesFor listed an inventory call's scopes in: both run
// side by side during a rolling deploy.
const INVENTORY_BEFORE: RateLimitScope[] = ["ingest", "ingest_inventory"];

let first: Database;
let second: Database;
let drop: () => Promise<void>;
let accounts: AccountStore;
let keys: ApiKeyStore;

beforeAll(async () => {
  const fresh = await freshDatabaseEnv();
  drop = fresh.drop;
  first = await openDatabase({ databaseUrl: fresh.env.DATABASE_URL, dataDir: "memory://" });
  // PGlite has one connection in this process: there both stores share it.
  second = fresh.env.DATABASE_URL ? await openDatabase({ databaseUrl: fresh.env.DATABASE_URL }) : first;
  accounts = createAccountStore(first, DEFAULTS);
  keys = createApiKeyStore(first);
});

afterAll(async () => {
  if (second !== first) await second?.close();
  await first?.close();
  await drop?.();
});

async function counted(accountId: string): Promise<Record<string, number>> {
  const rows = await first.rows<{ scope: string; n: number }>(
    sql`select scope, sum(count)::int as n from rate_limit_buckets where account_id = ${accountId} group by scope`,
  );
  return Object.fromEntries(rows.map((r) => [r.scope, Number(r.n)]));
}

describe("authorize: token and rate limits in one batched statement", () => {
  it("answers a batch of two accounts, unknown and revoked tokens, two scope sets and an unlimited call", async () => {
    const a = await accounts.createAccount("a");
    const b = await accounts.createAccount("b");
    const revoked = (await accounts.createToken(a.account_id))?.token as string;
    await accounts.revokeToken(revoked);

    const batch = await Promise.all([
      accounts.authorize(a.token, INGEST),
      accounts.authorize("oisr_unknown", INGEST),
      accounts.authorize(a.token, INVENTORY),
      accounts.authorize(b.token, ["orders_read"]),
      accounts.authorize(revoked, INVENTORY),
      accounts.authorize(a.token, INGEST),
      accounts.authorize(b.token, []),
    ]);

    const accountA = { id: a.account_id, name: "a", rateLimits: null };
    const accountB = { id: b.account_id, name: "b", rateLimits: null };
    // Input order within a group; a's inventory call comes after both of its ingest-only calls.
    expect(batch).toMatchObject([
      { account: accountA, decision: { allowed: true, scope: "ingest", limit: 600, remaining: 599 } },
      { account: null, decision: null },
      {
        account: accountA,
        decision: { allowed: true, scope: "ingest_inventory", limit: 120, remaining: 119 },
      },
      { account: accountB, decision: { allowed: true, scope: "orders_read", limit: 7, remaining: 6 } },
      { account: null, decision: null },
      { account: accountA, decision: { allowed: true, scope: "ingest", limit: 600, remaining: 598 } },
      { account: accountB, decision: null },
    ]);
    const reset = Math.floor(Date.now() / 1000) + 60;
    expect(batch[0]?.decision?.reset).toBeGreaterThanOrEqual(reset - 2);
    expect(batch[0]?.decision?.reset).toBeLessThanOrEqual(reset);

    // The revoked token counted toward nothing, the unlimited call neither.
    expect(await counted(a.account_id)).toEqual({ ingest: 3, ingest_inventory: 1 });
    expect(await counted(b.account_id)).toEqual({ orders_read: 1 });
    expect(await accounts.authenticate(a.token)).toEqual(accountA);
    expect(await accounts.authenticate(revoked)).toBeNull();
  });

  it("takes an account's own limits over the deployment's", async () => {
    const a = await accounts.createAccount("overrides");
    const plain = await accounts.createAccount("plain");
    await accounts.setRateLimits(a.account_id, { ingest: 3, orders_read: 2 });

    const [ingest, inventory, orders, plainOrders] = await Promise.all([
      accounts.authorize(a.token, INGEST),
      accounts.authorize(a.token, INVENTORY),
      accounts.authorize(a.token, ["orders_read"]),
      accounts.authorize(plain.token, ["orders_read"]),
    ]);
    expect(ingest?.account?.rateLimits).toEqual({ ingest: 3, orders_read: 2 });
    expect(ingest?.decision).toMatchObject({ allowed: true, limit: 3, remaining: 2 });
    // ingest (3, one left after this call) binds before ingest_inventory's default 120.
    expect(inventory?.decision).toMatchObject({ allowed: true, scope: "ingest", limit: 3, remaining: 1 });
    expect(orders?.decision).toMatchObject({ allowed: true, limit: 2, remaining: 1 });
    expect(plainOrders?.decision).toMatchObject({ allowed: true, limit: 7, remaining: 6 });
  });

  it("lets exactly `limit` of limit+1 concurrent calls through, from two stores", async () => {
    const a = await accounts.createAccount("limit");
    await accounts.setRateLimits(a.account_id, { ingest: 5 });
    const other = createAccountStore(second, DEFAULTS);

    const results = await Promise.all(
      Array.from({ length: 6 }, (_, i) => (i % 2 ? other : accounts).authorize(a.token, INGEST)),
    );
    const decisions = results.map((r) => r.decision);
    expect(decisions.filter((d) => d?.allowed)).toHaveLength(5);
    expect(decisions.filter((d) => d?.allowed).map((d) => d?.remaining)).toEqual(
      expect.arrayContaining([4, 3, 2, 1, 0]),
    );
    expect(decisions.find((d) => !d?.allowed)).toMatchObject({ limit: 5, remaining: 0 });
    // The refused call counted toward nothing.
    expect(await counted(a.account_id)).toEqual({ ingest: 5 });
    expect((await accounts.authorize(a.token, INGEST)).decision).toMatchObject({ allowed: false });
  });

  it("runs many concurrent batches over the same accounts in opposite orders on two connections without a deadlock, either scope order", async () => {
    const owners = await Promise.all(["d1", "d2", "d3", "d4"].map((name) => accounts.createAccount(name)));
    // Limits no call here reaches: every call must be let through and counted.
    const roomy = { ...DEFAULTS, orders_read: 1000 };
    const [one, other] = [createAccountStore(first, roomy), createAccountStore(second, roomy)];
    const sets: RateLimitScope[][] = [INGEST, INVENTORY, INVENTORY_BEFORE, ["orders_read"], []];
    const rounds = 15;
    // Each round, one store sees the accounts forwards and the other backwards, with every scope set.
    const calls: Promise<unknown>[] = [];
    for (let round = 0; round < rounds; round++) {
      for (const [store, order] of [
        [one, owners],
        [other, [...owners].reverse()],
      ] as const) {
        for (const owner of order) {
          for (const scopes of sets) calls.push(store.authorize(owner.token, scopes));
        }
      }
      // Let batches form and overlap between rounds.
      await new Promise((resolve) => setImmediate(resolve));
    }
    const results = (await Promise.allSettled(calls)).map((r) =>
      r.status === "rejected" ? String(r.reason) : "ok",
    );
    expect(results.filter((r) => r !== "ok")).toEqual([]);
    // Every call was counted once: 2 stores × rounds, with ingest counted by all three ingest sets.
    for (const owner of owners) {
      expect(await counted(owner.account_id)).toEqual({
        ingest: 6 * rounds,
        ingest_inventory: 4 * rounds,
        orders_read: 2 * rounds,
      });
    }
  });
});

describe("authorize: the key's state and permissions", () => {
  const needs = (permission: Permission) => grantingPermissions(permission);

  async function key(accountId: string, permissions: readonly string[], expiresAtMs: number | null = null) {
    return keys.insert(
      { accountId, name: "test", permissions, expiresAtMs, createdBy: null },
      Date.now() - 10_000,
    );
  }

  it("answers ok, forbidden, expired, secret_expired and revoked in one batch, and counts only the calls let through", async () => {
    const a = await accounts.createAccount("verdicts");
    const now = Date.now();
    const reader = await key(a.account_id, ["orders:read"], now + 60_000);
    const expired = await key(a.account_id, PERMISSIONS, now - 1);
    const hooks = await key(a.account_id, ["webhooks:write"]);
    const rotating = await key(a.account_id, PERMISSIONS);
    // The old secret's overlap ended a second ago; the new one works.
    const rotated = await keys.rotate(a.account_id, rotating.key.id, 0, now - 1000);
    if (rotated.outcome !== "rotated") throw new Error(rotated.outcome);
    const revoked = await key(a.account_id, PERMISSIONS);
    await keys.revoke(a.account_id, revoked.key.id, { keepLastAdmin: true });

    const batch = await Promise.all([
      accounts.authorize(reader.secret, ["orders_read"], needs("orders:read"), now),
      accounts.authorize(reader.secret, INGEST, needs("ingest:write"), now),
      accounts.authorize(expired.secret, ["orders_read"], needs("orders:read"), now),
      accounts.authorize(rotating.secret, ["orders_read"], needs("orders:read"), now),
      accounts.authorize(rotated.secret, ["orders_read"], needs("orders:read"), now),
      accounts.authorize(revoked.secret, ["orders_read"], needs("orders:read"), now),
      // A :write grants the :read of the same resource.
      accounts.authorize(hooks.secret, ["webhooks"], needs("webhooks:read"), now),
      // ...and nothing else.
      accounts.authorize(hooks.secret, ["returns_read"], needs("returns:read"), now),
      // A call no permission covers (answered 404 after authentication) needs none.
      accounts.authorize(reader.secret, [], [], now),
    ]);
    const accountA = { id: a.account_id, name: "verdicts", rateLimits: null };
    expect(batch.map((r) => r.verdict)).toEqual([
      "ok",
      "forbidden",
      "expired",
      "secret_expired",
      "ok",
      null,
      "ok",
      "forbidden",
      "ok",
    ]);
    expect(batch[0]).toMatchObject({
      account: accountA,
      key: {
        id: reader.key.id,
        permissions: ["orders:read"],
        expiresAtMs: now + 60_000,
        secretExpiresAtMs: null,
      },
      decision: { allowed: true, scope: "orders_read", limit: 7, remaining: 6 },
    });
    expect(batch[1]).toMatchObject({ account: accountA, key: { id: reader.key.id }, decision: null });
    expect(batch[2]).toMatchObject({ key: { id: expired.key.id, expiresAtMs: now - 1 }, decision: null });
    expect(batch[3]).toMatchObject({
      key: { id: rotating.key.id, secretExpiresAtMs: now - 1000 },
      decision: null,
    });
    // The new secret's call is the second of the group: the refused calls took no position.
    expect(batch[4]).toMatchObject({
      key: { id: rotating.key.id },
      decision: { allowed: true, remaining: 5 },
    });
    expect(batch[5]).toEqual({ account: null, key: null, verdict: null, decision: null });
    expect(batch[6]?.decision).toMatchObject({ allowed: true, scope: "webhooks" });
    expect(batch[7]?.decision).toBeNull();
    expect(batch[8]?.decision).toBeNull();
    // Forbidden, expired and revoked calls counted toward nothing.
    expect(await counted(a.account_id)).toEqual({ orders_read: 2, webhooks: 1 });
    expect(await accounts.authenticate(reader.secret)).toEqual(accountA);
    expect(await accounts.authenticate(expired.secret)).toBeNull();
    expect(await accounts.authenticate(rotating.secret)).toBeNull();
  });

  it("refuses a key from the instant its expiry passes, without counting the call", async () => {
    const a = await accounts.createAccount("expiry");
    const now = Date.now();
    const expiring = await key(a.account_id, ["orders:read"], now + 5_000);
    expect(
      (await accounts.authorize(expiring.secret, ["orders_read"], ["orders:read"], now + 4_999)).verdict,
    ).toBe("ok");
    expect(
      (await accounts.authorize(expiring.secret, ["orders_read"], ["orders:read"], now + 5_000)).verdict,
    ).toBe("expired");
    expect(await counted(a.account_id)).toEqual({ orders_read: 1 });
  });

  it("does not count a forbidden call toward a limit that is full, nor take the place of an allowed one", async () => {
    const a = await accounts.createAccount("full");
    await accounts.setRateLimits(a.account_id, { orders_read: 1 });
    const reader = await key(a.account_id, ["returns:read"]);
    const [forbidden, allowed, refused] = await Promise.all([
      accounts.authorize(reader.secret, ["orders_read"], ["orders:read"]),
      accounts.authorize(a.token, ["orders_read"], ["orders:read"]),
      accounts.authorize(a.token, ["orders_read"], ["orders:read"]),
    ]);
    expect(forbidden).toMatchObject({ verdict: "forbidden", decision: null });
    expect(allowed).toMatchObject({ verdict: "ok", decision: { allowed: true, remaining: 0 } });
    expect(refused).toMatchObject({ verdict: "ok", decision: { allowed: false } });
    expect(await counted(a.account_id)).toEqual({ orders_read: 1 });
  });
});
