// Rate limits with the server's scopes, headers and 429s, on the mock clock.
import { describe, expect, it } from "vitest";
import { createMock, mockOptionsFromEnv } from "../src/index.ts";
import { client, frozenMock, order } from "./support.ts";

const snapshot = {
  location_id: "W1",
  as_of: "2025-03-01T00:00:00Z",
  mode: "partial",
  items: [{ sku: "A", on_hand: 1, available: 1 }],
};

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

  it("a call refused by two full scopes is told to wait until both have room", async () => {
    const { mock, call } = frozenMock({ rateLimits: { ingest: 3, ingest_inventory: 2 } });
    await call("POST", "/ingest/orders", { orders: [order("A")] });
    mock.controls.clock.advance(10_000);
    await call("POST", "/ingest/inventory", { snapshots: [snapshot] });
    await call("POST", "/ingest/inventory", { snapshots: [snapshot] });
    // ingest's oldest call leaves in 50 s, ingest_inventory's in 60 s: retrying after 50 s would be refused.
    const refused = await call("POST", "/ingest/inventory", { snapshots: [snapshot] });
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).toBe("60");
    expect(refused.headers.get("x-ratelimit-limit")).toBe("2");
    mock.controls.clock.advance(60_000);
    expect((await call("POST", "/ingest/inventory", { snapshots: [snapshot] })).status).toBe(202);
  });

  it("counts an inventory call sent with a trailing slash or another case as inventory", async () => {
    const { call } = frozenMock({ rateLimits: { ingest_inventory: 1 } });
    await call("POST", "/ingest/inventory", { snapshots: [snapshot] });
    for (const path of ["/ingest/inventory/", "/Ingest/Inventory"]) {
      const res = await call("POST", path, { snapshots: [snapshot] });
      expect([res.status, res.headers.get("x-ratelimit-limit")]).toEqual([429, "1"]);
    }
  });
});

describe("rate-limit configuration", () => {
  it("reads the server's variables, and OISR_RATE_LIMITS=off", () => {
    expect(
      mockOptionsFromEnv({
        OISR_RATE_LIMITS: '{"orders_read": 2}',
        OISR_MAX_ATTEMPTS: "0",
        OISR_RETRY_BASE_MS: "50",
        OISR_REQUEST_RETENTION_DAYS: "7",
        OISR_WEBHOOK_ALLOW_PRIVATE_NETWORKS: "1",
        OISR_WEBHOOK_RETRY_SCHEDULE: "1s,250ms",
        OISR_MOCK_PROCESSING_DELAY_MS: "5",
      }),
    ).toEqual({
      rateLimits: { orders_read: 2 },
      maxAttempts: 1,
      retryDelayMs: 50,
      requestRetentionDays: 7,
      processingDelayMs: 5,
      webhooks: { allowPrivateNetworks: true, retrySchedule: [1000, 250] },
    });
    expect(mockOptionsFromEnv({ OISR_RATE_LIMITS: "off" })).toEqual({ rateLimits: false });
    expect(mockOptionsFromEnv({})).toEqual({});
  });

  it("refuses what the server refuses, with the same words", () => {
    expect(() => mockOptionsFromEnv({ OISR_RATE_LIMITS: "{ingest: 5}" })).toThrow(
      /OISR_RATE_LIMITS is not JSON/,
    );
    expect(() => mockOptionsFromEnv({ OISR_RATE_LIMITS: '{"ingest": 0}' })).toThrow(
      'OISR_RATE_LIMITS: the limit of "ingest" must be a positive integer',
    );
    expect(() => mockOptionsFromEnv({ OISR_MAX_ATTEMPTS: "2.5" })).toThrow(
      "OISR_MAX_ATTEMPTS must be a non-negative integer",
    );
    expect(() => createMock({ rateLimits: { ingest: 5, orders: 1 } as never })).toThrow(
      /^rateLimits: unknown scope "orders"/,
    );
  });
});
