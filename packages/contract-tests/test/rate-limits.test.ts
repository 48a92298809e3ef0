// docs/product.md §8: per-account rolling-window limits, with small limits on a dedicated system.
import { describe, expect, it } from "vitest";
import type { ApiResponse } from "../src/client.ts";
import { at, order, snapshot } from "../src/fixtures.ts";
import { type Client, expectProblem, useSystem } from "../src/harness.ts";
import { listsInclude } from "../src/replica-lag.ts";
import { targets } from "../src/targets.ts";

const LIMITS = { ingest: 5, ingest_inventory: 2, orders_read: 3 };

function limits(res: ApiResponse) {
  const get = (name: string) => {
    const value = res.headers.get(name);
    expect(value, `${name} on ${res.status}`).toMatch(/^\d+$/);
    return Number(value);
  };
  return {
    limit: get("x-ratelimit-limit"),
    remaining: get("x-ratelimit-remaining"),
    reset: get("x-ratelimit-reset"),
  };
}

const ingestOrder = (c: Client) => c.post("/ingest/orders", { orders: [order()] });
const ingestInventory = (c: Client) =>
  c.post("/ingest/inventory", {
    snapshots: [snapshot("WH", at(0), "partial", [{ sku: "S", on_hand: 1, available: 1 }])],
  });

function expectRefused(res: ApiResponse, limit: number) {
  expectProblem(res, 429, "rate_limited");
  expect(limits(res)).toMatchObject({ limit, remaining: 0 });
  const retryAfter = res.headers.get("retry-after");
  expect(retryAfter).toMatch(/^\d+$/);
  expect(Number(retryAfter)).toBeGreaterThanOrEqual(1);
  expect(Number(retryAfter)).toBeLessThanOrEqual(60);
}

describe.each(targets)("rate limits — $name", (target) => {
  // This file's system has the small limits, so its accounts can exhaust them in a few calls.
  const h = useSystem(target, { OISR_RATE_LIMITS: JSON.stringify({ ...LIMITS, requests_read: 100_000 }) });

  it("limited responses carry X-RateLimit-Limit, -Remaining and -Reset; the 6th ingest is 429 with Retry-After", async () => {
    const c = await h.account();
    const now = Math.floor(Date.now() / 1000);
    for (let i = 1; i <= 5; i++) {
      const res = await ingestOrder(c);
      expect(res.status).toBe(202);
      const l = limits(res);
      expect(l).toMatchObject({ limit: 5, remaining: 5 - i });
      // Unix seconds at which the oldest counted call leaves the 60 s window.
      expect(l.reset).toBeGreaterThanOrEqual(now + 59);
      expect(l.reset).toBeLessThanOrEqual(now + 65);
    }
    const refused = await ingestOrder(c);
    expectRefused(refused, 5);
    expect(Number(refused.headers.get("retry-after"))).toBeLessThanOrEqual(limits(refused).reset - now + 1);
    // Nothing of the refused call was stored.
    expect((await c.get("/requests")).body.data).toHaveLength(5);
  });

  it("refused calls do not count: the window's reset does not move, and a refused inventory call does not use up ingest", async () => {
    const c = await h.account();
    // Two inventory calls use up ingest_inventory (2) and two of ingest (5).
    expect((await ingestInventory(c)).status).toBe(202);
    const second = await ingestInventory(c);
    expect(second.status).toBe(202);
    const reset = limits(second).reset;
    // Refused by ingest_inventory, several times: none of them counts toward ingest.
    for (let i = 0; i < 3; i++) {
      const refused = await ingestInventory(c);
      expectRefused(refused, 2);
      expect(limits(refused).reset).toBe(reset);
    }
    // So ingest still has exactly 3 left.
    let last: ApiResponse | undefined;
    for (let i = 0; i < 3; i++) {
      last = await ingestOrder(c);
      expect(last.status).toBe(202);
    }
    expectRefused(await ingestOrder(c), 5);
    // A list that lags (a read replica) shows every earlier call once it shows the last one.
    await listsInclude(c, last?.body.request_id);
    expect((await c.get("/requests")).body.data).toHaveLength(5);
  });

  it("an inventory call counts toward both scopes and reports the one with fewest remaining", async () => {
    const c = await h.account();
    const first = await ingestInventory(c);
    expect(first.status).toBe(202);
    // ingest_inventory: 1 of 2 left; ingest: 4 of 5 left → ingest_inventory is reported.
    expect(limits(first)).toMatchObject({ limit: 2, remaining: 1 });
    // It counted toward ingest as well: 3 left after this order.
    expect(limits(await ingestOrder(c))).toMatchObject({ limit: 5, remaining: 3 });
    const second = await ingestInventory(c);
    expect(second.status).toBe(202);
    expect(limits(second)).toMatchObject({ limit: 2, remaining: 0 });
    expectRefused(await ingestInventory(c), 2);
    // Two inventory calls and one order used 3 of ingest; the refused call none.
    expect(limits(await ingestOrder(c))).toMatchObject({ limit: 5, remaining: 1 });
  });

  it("when ingest has fewer left than ingest_inventory, an inventory call reports ingest's numbers", async () => {
    const c = await h.account();
    for (let i = 0; i < 4; i++) expect((await ingestOrder(c)).status).toBe(202);
    // ingest: 1 left, ingest_inventory: 2 left → after this call 0 and 1: ingest is reported.
    const inv = await ingestInventory(c);
    expect(inv.status).toBe(202);
    expect(limits(inv)).toMatchObject({ limit: 5, remaining: 0 });
    // Refused by ingest; ingest_inventory still has one left, which the refusal did not use.
    expectRefused(await ingestInventory(c), 5);
  });

  it("limits are per account: another account is unaffected", async () => {
    const [a, b] = [await h.account(), await h.account()];
    for (let i = 0; i < 5; i++) await ingestOrder(a);
    expectRefused(await ingestOrder(a), 5);
    const res = await ingestOrder(b);
    expect(res.status).toBe(202);
    expect(limits(res)).toMatchObject({ limit: 5, remaining: 4 });
  });

  it("scopes are separate: GET /orders and /orders/{id} share orders_read, other reads are not affected", async () => {
    const c = await h.account();
    expect(limits(await c.get("/orders"))).toMatchObject({ limit: 3, remaining: 2 });
    expect(limits(await c.get("/orders/ORD-1"))).toMatchObject({ limit: 3, remaining: 1 });
    expect(limits(await c.get("/orders?limit=1"))).toMatchObject({ limit: 3, remaining: 0 });
    expectRefused(await c.get("/orders"), 3);
    expectRefused(await c.get("/orders/ORD-1"), 3);
    // Different scopes: the default returns_read (120) and the relaxed requests_read; ingest is untouched.
    const returns = await c.get("/returns");
    expect(returns.status).toBe(200);
    expect(limits(returns)).toMatchObject({ limit: 120, remaining: 119 });
    expect((await c.get("/requests")).status).toBe(200);
    expect(limits(await ingestOrder(c))).toMatchObject({ limit: 5, remaining: 4 });
  });

  it("errors of limited operations carry the headers too; 401s and unlimited probes do not", async () => {
    const c = await h.account();
    const bad = await c.post("/ingest/orders", { orders: [] });
    expectProblem(bad, 400, "validation_failed");
    expect(limits(bad)).toMatchObject({ limit: 5 });
    const unauthorized = await c.request("GET", "/orders", {
      headers: { authorization: "Bearer oisr_nope" },
    });
    expect(unauthorized.status).toBe(401);
    expect(unauthorized.headers.get("x-ratelimit-limit")).toBeNull();
    const health = await fetch(`${h.system.origin}/healthz`);
    expect(health.headers.get("x-ratelimit-limit")).toBeNull();
  });
});
