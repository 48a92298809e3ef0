import { setupMockServer } from "@oisr/mock-server/node";
import { createClient, type OrderInput, RateLimitError } from "@oisr/sdk";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { syncOrders } from "../src/sync-orders.ts";

// The mock answers http://localhost:4010/v2 inside this process (msw intercepts fetch): no server,
// no network, business rules and request life cycle as the real API has them.
const api = setupMockServer();
beforeAll(() => api.listen());
afterEach(() => api.controls.reset());
afterAll(() => api.close());

const { token } = api.controls.createAccount("shop");
const client = createClient({ baseUrl: api.baseUrl, token, maxRetries: 0 });

const order = (n: number, overrides: Partial<OrderInput> = {}): OrderInput => ({
  external_id: `S-${n}`,
  source: "shop",
  currency: "EUR",
  placed_at: "2025-01-01T00:00:00Z",
  source_updated_at: "2025-01-01T00:00:00Z",
  ship_to: { name: "Ada", line1: "1 Main St", city: "Berlin", country: "DE" },
  lines: [{ line_id: "1", sku: `SKU-${n}`, quantity: 1, unit_price: "5.00" }],
  ...overrides,
});

describe("syncOrders", () => {
  it("syncs every order", async () => {
    const { token: fresh } = api.controls.createAccount("fresh");
    const result = await syncOrders(
      createClient({ baseUrl: api.baseUrl, token: fresh }),
      [1, 2, 3].map((n) => order(n)),
    );
    expect(result).toEqual({ synced: ["S-1", "S-2", "S-3"], rejected: [], resubmitted: 0 });
    expect(
      api.store
        .account(fresh)
        .orders()
        .map((o) => o.external_id),
    ).toEqual(["S-1", "S-2", "S-3"]);
  });

  it("resubmits a batch whose request ended dead", async () => {
    api.controls.failNext("dead", { token });
    const result = await syncOrders(client, [order(1), order(2)]);
    expect(result.resubmitted).toBe(1);
    expect(result.synced).toEqual(["S-1", "S-2"]);
    expect(api.controls.requests({ token }).map((r) => r.status)).toEqual(["dead", "succeeded"]);
  });

  it("sets aside the orders the business rules reject and syncs the rest", async () => {
    // Shipped orders cannot be cancelled: seed S-2 with a shipment, then try to cancel it.
    api.controls.seed(
      {
        orders: [order(2)],
        shipments: [
          {
            external_id: "P-1",
            order_id: "S-2",
            carrier: "dhl",
            shipped_at: "2025-01-02T00:00:00Z",
            lines: [{ line_id: "1", quantity: 1 }],
          },
        ],
      },
      { token },
    );
    const result = await syncOrders(client, [
      order(1),
      order(2, { status: "cancelled", source_updated_at: "2025-01-03T00:00:00Z" }),
      order(3),
    ]);
    expect(result.synced).toEqual(["S-1", "S-3"]);
    expect(result.rejected).toEqual([
      { external_id: "S-2", code: expect.any(String), message: expect.any(String) },
    ]);
    expect(api.store.account(token).order("S-2")?.status).toBe("shipped");
  });

  it("reports a rate limit, and succeeds once the mock's clock has moved past the window", async () => {
    api.controls.clock.freeze();
    api.controls.exhaustRateLimit("ingest", token);
    const error = await syncOrders(client, [order(1)]).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitError);
    expect((error as RateLimitError).retryAfterMs).toBeGreaterThan(0);

    api.controls.clock.advance(60_000);
    expect((await syncOrders(client, [order(1)])).synced).toEqual(["S-1"]);
  });
});
