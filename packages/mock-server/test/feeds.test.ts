// Change feeds, lists and lookups: what a poller sees.
import { describe, expect, it } from "vitest";
import { disposition, frozenMock, order, returnOf, tick } from "./support.ts";

const ids = (page: { data: { external_id: string }[] }) => page.data.map((o) => o.external_id);

describe("orders change feed", () => {
  it("orders each order by its latest change and resumes from a stored cursor", async () => {
    const { mock, call } = frozenMock();
    await call("POST", "/ingest/orders", { orders: [order("A"), order("B"), order("C")] });
    await tick();
    const first = (await call("GET", "/orders")).body;
    expect(ids(first)).toEqual(["A", "B", "C"]);
    expect(first.has_more).toBe(false);

    mock.controls.clock.advance(1000);
    await call("POST", "/ingest/orders", {
      orders: [order("A", { status: "on_hold", source_updated_at: "2025-03-14T10:00:00Z" })],
    });
    await call("POST", "/ingest/shipments", {
      shipments: [
        {
          external_id: "S1",
          order_id: "B",
          carrier: "UPS",
          shipped_at: "2025-03-15T10:00:00Z",
          lines: [{ line_id: "L2", quantity: 1 }],
        },
      ],
    });
    await tick();
    const since = (await call("GET", `/orders?cursor=${first.next_cursor}`)).body;
    expect(ids(since)).toEqual(["A", "B"]);
    expect(since.data[0]).toMatchObject({ status: "on_hold", version: 2 });
    expect(since.data[1]).toMatchObject({
      status: "partially_shipped",
      version: 2,
      shipments: [{ external_id: "S1" }],
    });
    expect(ids((await call("GET", "/orders")).body)).toEqual(["C", "A", "B"]);

    // Nothing changed since: an empty page that keeps its position.
    const empty = (await call("GET", `/orders?cursor=${since.next_cursor}`)).body;
    expect(empty).toEqual({ data: [], next_cursor: since.next_cursor, has_more: false });
  });

  it("keeps the position of an order whose resend changed nothing (unchanged or stale)", async () => {
    const { call } = frozenMock();
    await call("POST", "/ingest/orders", { orders: [order("A"), order("B")] });
    await tick();
    const ack = await call("POST", "/ingest/orders", {
      orders: [
        order("A", { source_updated_at: "2025-03-14T11:00:00Z" }),
        order("B", { source_updated_at: "2025-01-01T00:00:00Z" }),
      ],
    });
    await tick();
    const record = (await call("GET", `/requests/${ack.body.request_id}`)).body;
    expect(record.result.items.map((i: { outcome: string }) => i.outcome)).toEqual(["unchanged", "stale"]);
    expect(ids((await call("GET", "/orders")).body)).toEqual(["A", "B"]);
  });

  it("pages with limit and has_more, and filters by status and source; cursors carry the filters", async () => {
    const { call } = frozenMock();
    await call("POST", "/ingest/orders", {
      orders: [order("A"), order("B", { source: "pos-1" }), order("C", { status: "cancelled" }), order("D")],
    });
    await tick();
    const page1 = (await call("GET", "/orders?limit=2")).body;
    expect([ids(page1), page1.has_more]).toEqual([["A", "B"], true]);
    const page2 = (await call("GET", `/orders?limit=2&cursor=${page1.next_cursor}`)).body;
    expect([ids(page2), page2.has_more]).toEqual([["C", "D"], false]);
    expect(ids((await call("GET", "/orders?source=pos-1")).body)).toEqual(["B"]);
    expect(ids((await call("GET", "/orders?status=cancelled")).body)).toEqual(["C"]);
    expect(ids((await call("GET", "/orders?updated_since=2030-01-01T00:00:00Z")).body)).toEqual([]);
    const mismatch = await call("GET", `/orders?status=open&cursor=${page1.next_cursor}`);
    expect(mismatch).toMatchObject({ status: 400, body: { code: "invalid_cursor" } });
  });

  it("finds an order by server id first, then external id; other accounts' orders are 404", async () => {
    const { call, mock } = frozenMock();
    await call("POST", "/ingest/orders", { orders: [order("A")] });
    await tick();
    const { id } = (await call("GET", "/orders/A")).body;
    expect((await call("GET", `/orders/${id}`)).body.external_id).toBe("A");
    const other = mock.controls.createAccount();
    expect(mock.store.account(other.token).orders()).toEqual([]);
    expect(mock.store.account().orders()).toEqual([]);
  });
});

describe("returns feed and inventory", () => {
  it("moves a return to the head on a disposition and filters by the order's external id", async () => {
    const { call } = frozenMock();
    await call("POST", "/ingest/orders", { orders: [order("A"), order("B")] });
    await call("POST", "/ingest/returns", { returns: [returnOf("R1", "A"), returnOf("R2", "B")] });
    await call("POST", "/ingest/returns/R1/dispositions", {
      dispositions: [disposition("D1"), disposition("D2", "L2")],
    });
    await tick();
    const feed = (await call("GET", "/returns")).body;
    expect(ids(feed)).toEqual(["R2", "R1"]);
    expect(feed.data[1]).toMatchObject({
      status: "completed",
      dispositions: [{ outcome: "restock" }, { outcome: "restock" }],
    });
    expect(ids((await call("GET", "/returns?order_id=A")).body)).toEqual(["R1"]);
    expect(ids((await call("GET", "/returns?status=approved")).body)).toEqual(["R2"]);
  });

  it("answers dispositions for an unknown server return id 404 at once", async () => {
    const { call } = frozenMock();
    const res = await call("POST", "/ingest/returns/ret_01JPSG5BNAPHTDHY3NB7Z638J1/dispositions", {
      dispositions: [{ line_id: "L1", quantity: 1, outcome: "restock", decided_at: "2025-03-20T10:00:00Z" }],
    });
    expect(res).toMatchObject({ status: 404, body: { code: "not_found" } });
  });

  it("lists inventory levels by location and sku, zeroing what a full snapshot omits", async () => {
    const { call } = frozenMock();
    const snapshot = (asOf: string, mode: string, items: { sku: string; on_hand: number }[]) => ({
      location_id: "W1",
      as_of: asOf,
      mode,
      items: items.map((i) => ({ ...i, available: i.on_hand })),
    });
    await call("POST", "/ingest/inventory", {
      snapshots: [
        snapshot("2025-03-01T00:00:00Z", "partial", [
          { sku: "B", on_hand: 2 },
          { sku: "A", on_hand: 1 },
          { sku: "C", on_hand: 3 },
        ]),
      ],
    });
    await call("POST", "/ingest/inventory", {
      snapshots: [snapshot("2025-03-02T00:00:00Z", "full", [{ sku: "A", on_hand: 5 }])],
    });
    await tick();
    const page = (await call("GET", "/inventory?limit=2")).body;
    expect(page.data.map((l: { sku: string; on_hand: number }) => [l.sku, l.on_hand])).toEqual([
      ["A", 5],
      ["B", 0],
    ]);
    const rest = (await call("GET", `/inventory?limit=2&cursor=${page.next_cursor}`)).body;
    expect(rest.data.map((l: { sku: string }) => l.sku)).toEqual(["C"]);
    expect((await call("GET", "/inventory?sku=B")).body.data).toEqual([
      expect.objectContaining({ reserved: 0, on_hand: 0 }),
    ]);
  });
});

describe("seed", () => {
  it("puts data in an account through the business rules, without requests or events", async () => {
    const { mock, call, token } = frozenMock();
    mock.controls.seed(
      {
        orders: [order("A")],
        shipments: [
          {
            external_id: "S1",
            order_id: "A",
            carrier: "UPS",
            shipped_at: "2025-03-15T10:00:00Z",
            lines: [
              { line_id: "L1", quantity: 2 },
              { line_id: "L2", quantity: 1 },
            ],
          },
        ],
        returns: [returnOf("R1", "A")],
        dispositions: {
          R1: [disposition("D1"), disposition("D2", "L2")],
        },
      },
      { token },
    );
    expect((await call("GET", "/orders/A")).body).toMatchObject({
      status: "shipped",
      lines: [{ quantity_shipped: 2, quantity_returned: 1 }, {}],
    });
    expect((await call("GET", "/returns/R1")).body.status).toBe("completed");
    expect(mock.controls.requests()).toEqual([]);
    expect(mock.controls.events()).toEqual([]);
    expect(
      mock.store
        .account(token)
        .returns()
        .map((r) => r.external_id),
    ).toEqual(["R1"]);
  });

  it("refuses data that the spec or the rules reject, saying why", () => {
    const { mock } = frozenMock();
    expect(() => mock.controls.seed({ orders: [order("A", { currency: "usd" })] })).toThrow(
      /\/orders\/0\/currency/,
    );
    expect(() => mock.controls.seed({ returns: [returnOf("R1", "nope")] })).toThrow(/order_not_found/);
  });
});
