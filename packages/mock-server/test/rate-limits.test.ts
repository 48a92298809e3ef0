// Rate limits with the server's scopes, headers and 429s, on the mock clock.
import { describe, expect, it } from "vitest";
import { client, frozenMock, order } from "./support.ts";

describe("rate limits", () => {
  it("exhaustRateLimit makes the scope's next call 429 with Retry-After, until the window passes", async () => {
    const { mock, call, token } = frozenMock();
    mock.controls.exhaustRateLimit("ingest", token);
    const refused = await call("POST", "/ingest/orders", { orders: [order("A")] });
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ code: "rate_limited", title: "Rate limit exceeded" });
    expect(refused.headers.get("x-ratelimit-limit")).toBe("600");
    expect(refused.headers.get("x-ratelimit-remaining")).toBe("0");
    expect(refused.headers.get("retry-after")).toBe("60");
    const resetAt = Number(refused.headers.get("x-ratelimit-reset"));
    expect(resetAt).toBe(Date.parse("2025-06-01T12:01:00Z") / 1000);
    expect(mock.controls.requests()).toEqual([]);

    // Other scopes and other accounts are not affected.
    expect((await call("GET", "/orders")).status).toBe(200);
    expect(
      (await client(mock, "oisr_other")("POST", "/ingest/orders", { orders: [order("A")] })).status,
    ).toBe(202);

    mock.controls.clock.advance(30_000);
    const later = await call("POST", "/ingest/orders", { orders: [order("A")] });
    expect(later.headers.get("retry-after")).toBe("30");
    mock.controls.clock.advance(30_000);
    expect((await call("POST", "/ingest/orders", { orders: [order("A")] })).status).toBe(202);
  });

  it("without a token, exhausts the scope for every account, new ones included", async () => {
    const { mock, call } = frozenMock();
    mock.controls.exhaustRateLimit("orders_read");
    expect((await call("GET", "/orders")).status).toBe(429);
    expect((await client(mock, "oisr_brand_new")("GET", "/orders/x")).status).toBe(429);
  });

  it("counts a call toward every scope it is in; headers describe the scope with the fewest left", async () => {
    const { call } = frozenMock({ rateLimits: { ingest: 10, ingest_inventory: 2 } });
    const snapshot = {
      location_id: "W1",
      as_of: "2025-03-01T00:00:00Z",
      mode: "partial",
      items: [{ sku: "A", on_hand: 1, available: 1 }],
    };
    const first = await call("POST", "/ingest/inventory", { snapshots: [snapshot] });
    expect([first.headers.get("x-ratelimit-limit"), first.headers.get("x-ratelimit-remaining")]).toEqual([
      "2",
      "1",
    ]);
    await call("POST", "/ingest/inventory", { snapshots: [snapshot] });
    const third = await call("POST", "/ingest/inventory", { snapshots: [snapshot] });
    expect(third.status).toBe(429);
    // The refused call counted toward no scope: ingest has 8 of 10 left.
    const orders = await call("POST", "/ingest/orders", { orders: [order("A")] });
    expect([orders.status, orders.headers.get("x-ratelimit-remaining")]).toEqual([202, "7"]);
  });

  it("applies configured limits and per-account overrides; rateLimits: false turns them off", async () => {
    const { mock, call, token } = frozenMock({ rateLimits: { orders_read: 2 } });
    expect((await call("GET", "/orders")).status).toBe(200);
    expect((await call("GET", "/orders")).status).toBe(200);
    expect((await call("GET", "/orders")).status).toBe(429);
    mock.controls.setRateLimits(token, { orders_read: 5 });
    expect((await call("GET", "/orders")).headers.get("x-ratelimit-limit")).toBe("5");

    const off = frozenMock({ rateLimits: false });
    const res = await off.call("GET", "/orders");
    expect(res.headers.has("x-ratelimit-limit")).toBe(false);
    expect(() => off.mock.controls.exhaustRateLimit("ingest")).toThrow(/off/);
  });

  it("does not limit unauthenticated calls or the API document", async () => {
    const { mock } = frozenMock();
    const res = await mock.handle(new Request(`${mock.baseUrl}/openapi.json`));
    expect(res?.status).toBe(200);
    expect(res?.headers.has("x-ratelimit-limit")).toBe(false);
  });
});
