// oisr_authorize through the store: one statement per batch authenticates and counts every call.
// PGlite, or PostgreSQL when DATABASE_URL is set (two pools there, as two server processes have).
import { DEFAULT_RATE_LIMITS, type RateLimitScope, scopesFor } from "@oisr/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Database, openDatabase, sql } from "../db/client.ts";
import { freshDatabaseEnv } from "../webhooks/test-support.ts";
import { type AccountStore, createAccountStore } from "./accounts.ts";

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

beforeAll(async () => {
  const fresh = await freshDatabaseEnv();
  drop = fresh.drop;
  first = await openDatabase({ databaseUrl: fresh.env.DATABASE_URL, dataDir: "memory://" });
  // PGlite has one connection in this process: there both stores share it.
  second = fresh.env.DATABASE_URL ? await openDatabase({ databaseUrl: fresh.env.DATABASE_URL }) : first;
  accounts = createAccountStore(first, DEFAULTS);
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
