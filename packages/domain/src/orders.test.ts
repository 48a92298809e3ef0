import { at } from "@oisr/contract/fixtures";
import { describe, expect, it } from "vitest";
import type { OrderInput, OrderLineInput } from "./input.ts";
import { MemoryState } from "./memory-state.ts";
import type { ItemError } from "./model.ts";
import { applyOrders } from "./orders.ts";
import {
  failedWith,
  Harness,
  orderInput,
  returnInput,
  shipmentInput,
  succeeded,
  testContext,
} from "./test-support.ts";

/** `n` days after a default order's source_updated_at (on the fixtures' timeline). */
const later = (n: number) => at(1 + n * 1440);
/** The same instant as `iso` (a UTC instant), written in +01:00. */
const inPlusOne = (iso: string) => new Date(Date.parse(iso) + 3_600_000).toISOString().replace("Z", "+01:00");

describe("applyOrders: create", () => {
  it("stores the API shape with defaults, nulls and derived fields", () => {
    // The example order cut down to what the spec requires: the rest defaults or is null.
    const { order_number, status, customer, bill_to, shipping_method, totals, metadata, ...bare } =
      orderInput();
    const { line2, region, postal_code, phone, ...street } = bare.ship_to;
    const input: OrderInput = {
      ...bare,
      ship_to: street,
      lines: bare.lines.map(({ name, ...line }) => line),
    };
    const res = succeeded(applyOrders(new MemoryState(), { orders: [input] }, testContext()));
    expect(res.result).toEqual({
      created: 1,
      updated: 0,
      unchanged: 0,
      stale: 0,
      items: [{ index: 0, type: "order", id: "ord_1", outcome: "created" }],
    });
    expect(res.events).toEqual([]);
    expect(res.changes.orders).toEqual([
      {
        id: "ord_1",
        external_id: "SO-1",
        order_number: null,
        source: "shopify",
        status: "open",
        currency: "USD",
        placed_at: at(0),
        customer: null,
        ship_to: {
          name: "Ava Thompson",
          company: null,
          line1: "1820 SE Belmont St",
          line2: null,
          city: "Portland",
          region: null,
          postal_code: null,
          country: "US",
          phone: null,
          email: null,
        },
        bill_to: null,
        shipping_method: null,
        lines: [
          {
            line_id: "L1",
            sku: "TEE-ORG-BLK-M",
            name: null,
            quantity: 2,
            unit_price: "24.00",
            quantity_shipped: 0,
            quantity_returned: 0,
          },
          {
            line_id: "L2",
            sku: "MUG-STW-12OZ",
            name: null,
            quantity: 1,
            unit_price: "14.50",
            quantity_shipped: 0,
            quantity_returned: 0,
          },
        ],
        totals: null,
        metadata: null,
        source_updated_at: at(1),
        shipments: [],
        version: 1,
        created_at: "2025-01-10T12:00:00Z",
        updated_at: "2025-01-10T12:00:00Z",
      },
    ]);
  });

  it("keeps the optional fields the caller sends", () => {
    const input = orderInput({
      order_number: "#1001",
      customer: { email: "ada@example.com" },
      bill_to: { name: "Ada", line1: "x", city: "y", country: "GB", company: "Engines Ltd" },
      shipping_method: "express",
      totals: { subtotal: "25.50", discount: "0.00", tax: "5.10", shipping: "4.90", total: "35.50" },
      metadata: { channel: "web" },
      status: "on_hold",
    });
    const [order] = succeeded(applyOrders(new MemoryState(), { orders: [input] }, testContext())).changes
      .orders;
    expect(order).toMatchObject({
      order_number: "#1001",
      customer: { name: null, email: "ada@example.com", phone: null },
      bill_to: { company: "Engines Ltd", line2: null },
      shipping_method: "express",
      totals: { total: "35.50" },
      metadata: { channel: "web" },
      status: "on_hold",
    });
  });

  it("never takes server-owned or derived fields from input", () => {
    const input = {
      ...orderInput(),
      id: "ord_FORGED",
      version: 42,
      created_at: "2000-01-01T00:00:00Z",
      status: "shipped",
      shipments: [{ id: "shp_x" }],
      lines: [
        {
          line_id: "L1",
          sku: "A",
          quantity: 3,
          unit_price: "1.00",
          quantity_shipped: 3,
          quantity_returned: 1,
        },
      ],
    } as unknown as OrderInput;
    const [order] = succeeded(applyOrders(new MemoryState(), { orders: [input] }, testContext())).changes
      .orders;
    expect(order).toMatchObject({
      id: "ord_1",
      version: 1,
      created_at: "2025-01-10T12:00:00Z",
      status: "open",
      shipments: [],
    });
    expect(order?.lines[0]).toMatchObject({ quantity_shipped: 0, quantity_returned: 0 });
  });
});

describe("applyOrders: upsert by external_id", () => {
  it.each([
    ["older", at(0)],
    ["equal", at(1)],
    ["the same instant in another offset", inPlusOne(at(1))],
  ])("an update with %s source_updated_at is stale and changes nothing", (_, ts) => {
    const h = new Harness();
    h.ok("orders", { orders: [orderInput()] });
    const res = h.ok("orders", { orders: [orderInput({ source_updated_at: ts, currency: "EUR" })] });
    expect(res.result.items).toEqual([{ index: 0, type: "order", id: "ord_1", outcome: "stale" }]);
    expect(res.result.stale).toBe(1);
    expect(res.changes.orders).toEqual([]);
    expect(h.state.orderById("ord_1")?.currency).toBe("USD");
  });

  it("a newer update with identical content is unchanged: no version bump, watermark kept", () => {
    const h = new Harness();
    h.ok("orders", { orders: [orderInput()] });
    const res = h.ok("orders", { orders: [orderInput({ source_updated_at: later(3) })] });
    expect(res.result.items[0]?.outcome).toBe("unchanged");
    expect(h.state.orderById("ord_1")).toMatchObject({
      version: 1,
      updated_at: Harness.at(1),
      source_updated_at: later(3),
    });
    // A change stamped between the two arrives late: the newer identical copy still wins.
    const late = h.ok("orders", { orders: [orderInput({ source_updated_at: later(2), currency: "EUR" })] });
    expect(late.result.items[0]?.outcome).toBe("stale");
  });

  it("treats re-formatted timestamps and reordered metadata keys as identical content", () => {
    const h = new Harness();
    h.ok("orders", { orders: [orderInput({ metadata: { a: "1", b: "2" } })] });
    const res = h.ok("orders", {
      orders: [
        orderInput({
          metadata: { b: "2", a: "1" },
          placed_at: at(0).replace("Z", "+00:00"),
          source_updated_at: later(2),
        }),
      ],
    });
    expect(res.result.items[0]?.outcome).toBe("unchanged");
  });

  it("a newer update with other content bumps the version and updated_at only", () => {
    const h = new Harness();
    h.ok("orders", { orders: [orderInput()] });
    const res = h.ok("orders", {
      orders: [orderInput({ source_updated_at: later(2), shipping_method: "express" })],
    });
    expect(res.result).toMatchObject({ updated: 1, items: [{ id: "ord_1", outcome: "updated" }] });
    expect(h.state.orderById("ord_1")).toMatchObject({
      shipping_method: "express",
      version: 2,
      created_at: Harness.at(1),
      updated_at: Harness.at(2),
    });
  });

  it("absent optional fields on update clear what an earlier version set", () => {
    const h = new Harness();
    h.ok("orders", { orders: [orderInput({ shipping_method: "express", status: "on_hold" })] });
    const { shipping_method, status, ...without } = orderInput({ source_updated_at: later(2) });
    h.ok("orders", { orders: [without] });
    expect(h.state.orderById("ord_1")).toMatchObject({ shipping_method: null, status: "open" });
  });

  it.each([
    ["updated", later(2), { currency: "EUR" }, "updated", 2],
    ["unchanged", later(2), {}, "unchanged", 1],
    ["stale", at(0), { currency: "EUR" }, "stale", 1],
  ] as const)("the same external_id twice in one batch: second is %s", (_, ts, change, outcome, version) => {
    const res = succeeded(
      applyOrders(
        new MemoryState(),
        { orders: [orderInput(), orderInput({ source_updated_at: ts, ...change })] },
        testContext(),
      ),
    );
    expect(res.result.items.map((i) => [i.id, i.outcome])).toEqual([
      ["ord_1", "created"],
      ["ord_1", outcome],
    ]);
    expect(res.changes.orders).toHaveLength(1);
    expect(res.changes.orders[0]?.version).toBe(version);
  });
});

describe("applyOrders: rules protecting shipments and returns", () => {
  // Order SO-1 with L1 x2 and L2 x1; L1 has 1 shipped and 1 returned, L2 nothing.
  function shippedAndReturned(): Harness {
    const h = new Harness();
    h.ok("orders", { orders: [orderInput()] });
    h.ok("shipments", { shipments: [shipmentInput({ lines: [{ line_id: "L1", quantity: 1 }] })] });
    h.ok("returns", {
      returns: [returnInput({ items: [{ line_id: "L1", quantity: 1, reason_code: "damaged" }] })],
    });
    return h;
  }
  const [L1, L2] = orderInput().lines as [OrderLineInput, OrderLineInput];
  const lines = (l1: number, extra: OrderInput["lines"] = [L2]) => [{ ...L1, quantity: l1 }, ...extra];

  it.each<[string, Partial<OrderInput>, Array<Omit<ItemError, "message">>]>([
    [
      "cancel with shipments",
      { status: "cancelled" },
      [{ pointer: "/orders/0/status", code: "order_has_shipments" }],
    ],
    [
      "line below its shipped and returned quantity",
      { lines: lines(0) },
      [
        { pointer: "/orders/0/lines/0/quantity", code: "line_below_shipped" },
        { pointer: "/orders/0/lines/0/quantity", code: "return_quantity_exceeded" },
      ],
    ],
    [
      "shipped line removed",
      { lines: [L2] },
      [{ pointer: "/orders/0/lines", code: "line_removal_forbidden" }],
    ],
    [
      "currency changed after shipping",
      { currency: "EUR" },
      [{ pointer: "/orders/0/currency", code: "currency_mismatch" }],
    ],
    [
      "duplicate line_id",
      { lines: lines(2, [{ line_id: "L1", sku: "X", quantity: 1, unit_price: "1.00" }]) },
      [{ pointer: "/orders/0/lines/1/line_id", code: "duplicate_line_id" }],
    ],
  ])("%s fails", (_, change, expected) => {
    const h = shippedAndReturned();
    const before = h.state.orderById("ord_1");
    const res = failedWith(
      h.run("orders", { orders: [orderInput({ source_updated_at: later(9), ...change })] }),
    );
    expect(res.errors.map(({ pointer, code }) => ({ pointer, code }))).toEqual(expected);
    expect(res.errors.every((e) => e.message.length > 0)).toBe(true);
    expect(h.state.orderById("ord_1")).toEqual(before);
  });

  it("removing an unshipped, unreturned line and changing quantities above shipped is fine", () => {
    const h = shippedAndReturned();
    const res = h.ok("orders", {
      orders: [orderInput({ source_updated_at: later(9), lines: lines(3, []) })],
    });
    expect(res.result.items[0]?.outcome).toBe("updated");
    const order = h.state.orderById("ord_1");
    // Derived quantities survive the update; status is re-derived from them.
    expect(order?.lines).toEqual([{ ...L1, quantity: 3, quantity_shipped: 1, quantity_returned: 1 }]);
    expect(order?.status).toBe("partially_shipped");
    expect(order?.shipments).toHaveLength(1);
  });

  it("cancelling an order without shipments is allowed, and so is re-opening it", () => {
    const h = new Harness();
    h.ok("orders", { orders: [orderInput()] });
    h.ok("orders", { orders: [orderInput({ status: "cancelled", source_updated_at: later(2) })] });
    expect(h.state.orderById("ord_1")?.status).toBe("cancelled");
    h.ok("orders", { orders: [orderInput({ status: "open", source_updated_at: later(3) })] });
    expect(h.state.orderById("ord_1")?.status).toBe("open");
  });

  it("a stale item is not checked against the rules it would break", () => {
    const h = shippedAndReturned();
    const res = h.ok("orders", { orders: [orderInput({ status: "cancelled" })] });
    expect(res.result.items[0]?.outcome).toBe("stale");
  });
});

describe("applyOrders: all or nothing", () => {
  it("reports every offending item and applies none of the batch", () => {
    const orders = [
      orderInput({ external_id: "A" }),
      orderInput({
        external_id: "B",
        lines: [...orderInput().lines, { line_id: "L2", sku: "X", quantity: 1, unit_price: "1" }],
      }),
      orderInput({ external_id: "C" }),
      orderInput({
        external_id: "D",
        lines: [...orderInput().lines, { line_id: "L1", sku: "X", quantity: 1, unit_price: "1" }],
      }),
    ];
    const res = failedWith(applyOrders(new MemoryState(), { orders }, testContext()));
    expect(res.errors.map((e) => [e.pointer, e.code])).toEqual([
      ["/orders/1/lines/2/line_id", "duplicate_line_id"],
      ["/orders/3/lines/2/line_id", "duplicate_line_id"],
    ]);
    expect(res).not.toHaveProperty("changes");
  });

  it("is deterministic: the same input gives the same output", () => {
    const run = () =>
      applyOrders(
        new MemoryState(),
        { orders: [orderInput(), orderInput({ external_id: "SO-2" })] },
        testContext(),
      );
    expect(run()).toEqual(run());
  });
});
