// docs/product.md §4 and §5: requests applied in order, all or nothing, under the business rules.
import { describe, expect, it } from "vitest";
import type { Json } from "../src/client.ts";
import { at, disposition, order, returnOf, shipment, uid } from "../src/fixtures.ts";
import { type Client, expectProblem, failedWith, succeeded, useSystem } from "../src/harness.ts";
import { targets } from "../src/targets.ts";

const ID = {
  order: /^ord_[0-9A-HJKMNP-TV-Z]{26}$/,
  shipment: /^shp_[0-9A-HJKMNP-TV-Z]{26}$/,
  return: /^ret_[0-9A-HJKMNP-TV-Z]{26}$/,
  disposition: /^dsp_[0-9A-HJKMNP-TV-Z]{26}$/,
};
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** One created item per submitted item, counts adding up to item_count. */
function expectCreated(record: Json, type: keyof typeof ID, n = 1) {
  const result = succeeded(record);
  expect(result).toMatchObject({ created: n, updated: 0, unchanged: 0, stale: 0 });
  expect(result.items).toHaveLength(n);
  result.items.forEach((item: Json, index: number) => {
    expect(item).toEqual({ index, type, id: expect.stringMatching(ID[type]), outcome: "created" });
  });
  expect(record).toMatchObject({ item_count: n, errors: [], error: null, attempts: 1 });
  expect(record.accepted_at <= record.started_at && record.started_at <= record.completed_at).toBe(true);
  return result.items.map((i: Json) => i.id as string);
}

function outcomes(record: Json): string[] {
  return succeeded(record).items.map((i: Json) => i.outcome);
}

async function getOrder(c: Client, ref: string): Promise<Json> {
  const res = await c.get(`/orders/${encodeURIComponent(ref)}`);
  expect(res.status, res.text).toBe(200);
  return res.body;
}

async function getReturn(c: Client, ref: string): Promise<Json> {
  const res = await c.get(`/returns/${encodeURIComponent(ref)}`);
  expect(res.status, res.text).toBe(200);
  return res.body;
}

/** An order that exists (succeeded), and its server id. */
async function anOrder(c: Client, overrides: Parameters<typeof order>[0] = {}) {
  const input = order(overrides);
  const [id] = expectCreated(await c.ingestAndWait("/ingest/orders", { orders: [input] }), "order");
  return { input, id: id as string };
}

describe.each(targets)("lifecycle — $name", (target) => {
  // Each test looks only at what it stored: it runs on the accounts of `--token` too.
  const h = useSystem(target, {}, { sharedAccounts: true });

  it("order → shipment → return → dispositions, submitted without waiting, all succeed in order", async () => {
    const c = await h.account();
    const o = order();
    const s = shipment(o.external_id);
    const r = returnOf(o.external_id);
    const acks = [
      await c.ingest("/ingest/orders", { orders: [o] }),
      await c.ingest("/ingest/shipments", { shipments: [s] }),
      await c.ingest("/ingest/returns", { returns: [r] }),
      // By RMA, right after the return was submitted (it may still be queued).
      await c.ingest(`/ingest/returns/${r.external_id}/dispositions`, {
        dispositions: [
          disposition("L1", 1),
          disposition("L2", 1, { outcome: "dispose", condition: "damaged" }),
        ],
      }),
    ];
    const records = [];
    for (const ack of acks) records.push(await c.wait(ack.body.request_id));
    const [orderId] = expectCreated(records[0], "order");
    const [shipmentId] = expectCreated(records[1], "shipment");
    const [returnId] = expectCreated(records[2], "return");
    const dispositionIds = expectCreated(records[3], "disposition", 2);
    expect(records.map((rec) => rec.kind)).toEqual(["orders", "shipments", "returns", "dispositions"]);

    // Every member the spec's example order sends comes back as sent (timestamps are compared as
    // instants below); the members an address leaves out are null.
    const { placed_at, source_updated_at, status, lines, ...sent } = o;
    const stored = await getOrder(c, o.external_id);
    expect(stored).toMatchObject({
      ...sent,
      id: orderId,
      status: "shipped",
      ship_to: { ...o.ship_to, company: null, email: null },
      bill_to: { ...o.bill_to, company: null, phone: null, email: null },
      lines: [
        { ...lines[0], line_id: "L1", quantity: 2, quantity_shipped: 2, quantity_returned: 1 },
        { ...lines[1], line_id: "L2", quantity: 1, quantity_shipped: 1, quantity_returned: 1 },
      ],
      shipments: [
        {
          id: shipmentId,
          external_id: s.external_id,
          carrier: s.carrier,
          service: s.service,
          tracking_number: s.tracking_number,
          tracking_url: s.tracking_url,
          location_id: s.location_id,
          lines: s.lines,
        },
      ],
    });
    expect(stored.placed_at).toMatch(ISO);
    expect(Date.parse(stored.placed_at)).toBe(Date.parse(o.placed_at));
    expect(stored.created_at).toMatch(ISO);
    expect(stored.updated_at).toMatch(ISO);
    // Created, then shipped, then returned: three versions.
    expect(stored.version).toBe(3);

    const ret = await getReturn(c, r.external_id);
    expect(ret).toMatchObject({
      id: returnId,
      external_id: r.external_id,
      order_id: orderId,
      order_external_id: o.external_id,
      status: "completed",
      reason: r.reason,
      customer_note: r.customer_note,
      tracking: r.tracking,
      // An item without a sku takes its order line's.
      items: [
        { ...r.items[0], line_id: "L1", sku: lines[0]?.sku, quantity: 1, quantity_dispositioned: 1 },
        { ...r.items[1], line_id: "L2", sku: lines[1]?.sku, quantity: 1, quantity_dispositioned: 1 },
      ],
    });
    expect(r.items[0]?.sku).toBeUndefined();
    expect(ret.received_at).toMatch(ISO);
    expect(ret.completed_at).toMatch(ISO);
    expect(ret.dispositions.map((d: Json) => [d.id, d.return_id, d.line_id, d.quantity, d.outcome])).toEqual([
      [dispositionIds[0], returnId, "L1", 1, "restock"],
      [dispositionIds[1], returnId, "L2", 1, "dispose"],
    ]);
    // One version per disposition on top of the first.
    expect(ret.version).toBe(3);
  });

  it("a resource's created_at and updated_at are not later than its request's completed_at", async () => {
    const c = await h.account();
    for (let i = 0; i < 5; i++) {
      const o = order();
      const record = await c.ingestAndWait("/ingest/orders", { orders: [o] });
      succeeded(record);
      const stored = (await c.get(`/orders/${o.external_id}`)).body;
      expect(
        Date.parse(stored.created_at),
        JSON.stringify([stored.created_at, record.completed_at]),
      ).toBeLessThanOrEqual(Date.parse(record.completed_at));
      expect(Date.parse(stored.updated_at)).toBeLessThanOrEqual(Date.parse(record.completed_at));
      expect(Date.parse(record.started_at)).toBeLessThanOrEqual(Date.parse(record.completed_at));
    }
  });

  it("resources are found by server id and by external_id; the server id is tried first", async () => {
    const c = await h.account();
    const a = await anOrder(c);
    expect(await getOrder(c, a.id)).toEqual(await getOrder(c, a.input.external_id));
    // An order whose external_id is A's server id: looking up that string finds A.
    const b = await anOrder(c, { external_id: a.id });
    expect((await getOrder(c, a.id)).external_id).toBe(a.input.external_id);
    expect((await getOrder(c, b.id)).external_id).toBe(a.id);

    const r = returnOf(a.input.external_id);
    const [returnId] = expectCreated(await c.ingestAndWait("/ingest/returns", { returns: [r] }), "return");
    expect(await getReturn(c, returnId)).toEqual(await getReturn(c, r.external_id));
    // A shipment or return may name its order by server id too.
    expectCreated(
      await c.ingestAndWait("/ingest/shipments", {
        shipments: [shipment(a.id, { lines: [{ line_id: "L2", quantity: 1 }] })],
      }),
      "shipment",
    );
    expect((await getOrder(c, a.id)).status).toBe("partially_shipped");
    expect(
      expectProblem(await c.get("/orders/ord_01JP9YVEKTNDE3MZX9B154EWRG"), 404, "not_found"),
    ).toBeTruthy();
    expectProblem(await c.get("/returns/RMA-missing"), 404, "not_found");
  });

  it("money and metadata are returned exactly as sent; caller timestamps keep their instant", async () => {
    const c = await h.account();
    const totals = { subtotal: "62.50", discount: "5", tax: "4.6000", shipping: "0", total: "-0.0001" };
    const metadata = { channel: "online_store", "key with spaces": "", ключ: "значение" };
    const { input } = await anOrder(c, { totals, metadata, placed_at: "2025-03-14T10:12:44.5+01:00" });
    const stored = await getOrder(c, input.external_id);
    expect(stored.totals).toEqual(totals);
    expect(stored.metadata).toEqual(metadata);
    expect(Date.parse(stored.placed_at)).toBe(Date.parse("2025-03-14T09:12:44.500Z"));
  });

  describe("replays and stale updates", () => {
    it("an order re-sent as is is stale; newer with the same content is unchanged; newer and different is updated", async () => {
      const c = await h.account();
      const { input } = await anOrder(c);
      expect(outcomes(await c.ingestAndWait("/ingest/orders", { orders: [input] }))).toEqual(["stale"]);
      const same = { ...input, source_updated_at: at(10) };
      expect(outcomes(await c.ingestAndWait("/ingest/orders", { orders: [same] }))).toEqual(["unchanged"]);
      expect((await getOrder(c, input.external_id)).version).toBe(1);
      // The watermark moved to at(10) even though nothing changed: something from at(5) is now stale.
      const between = { ...input, shipping_method: "Ground", source_updated_at: at(5) };
      expect(outcomes(await c.ingestAndWait("/ingest/orders", { orders: [between] }))).toEqual(["stale"]);
      const newer = { ...input, shipping_method: "Express", source_updated_at: at(20) };
      const record = await c.ingestAndWait("/ingest/orders", { orders: [newer] });
      expect(succeeded(record)).toMatchObject({ created: 0, updated: 1, unchanged: 0, stale: 0 });
      const stored = await getOrder(c, input.external_id);
      expect(stored).toMatchObject({ version: 2, shipping_method: "Express" });
      expect(Date.parse(stored.source_updated_at)).toBe(Date.parse(at(20)));
    });

    it("an older source_updated_at is stale and changes nothing", async () => {
      const c = await h.account();
      const { input } = await anOrder(c, { source_updated_at: at(30) });
      const older = { ...input, status: "cancelled" as const, source_updated_at: at(29) };
      const record = await c.ingestAndWait("/ingest/orders", { orders: [older] });
      expect(succeeded(record)).toMatchObject({ created: 0, updated: 0, unchanged: 0, stale: 1 });
      expect(await getOrder(c, input.external_id)).toMatchObject({ status: "open", version: 1 });
    });

    it("optional fields left out of an update are cleared, and a missing status reopens a held order", async () => {
      const c = await h.account();
      const { input } = await anOrder(c, {
        status: "on_hold",
        shipping_method: "Ground",
        metadata: { a: "b" },
      });
      expect(await getOrder(c, input.external_id)).toMatchObject({
        status: "on_hold",
        shipping_method: "Ground",
        metadata: { a: "b" },
      });
      const { status, shipping_method, metadata, customer, ...rest } = input;
      succeeded(
        await c.ingestAndWait("/ingest/orders", { orders: [{ ...rest, source_updated_at: at(10) }] }),
      );
      expect(await getOrder(c, input.external_id)).toMatchObject({
        status: "open",
        shipping_method: null,
        metadata: null,
        customer: null,
        version: 2,
      });
    });

    it("items of one batch apply in order: a later item with the same external_id sees the earlier one", async () => {
      const c = await h.account();
      const first = order();
      const second = { ...first, shipping_method: "Express", source_updated_at: at(10) };
      const record = await c.ingestAndWait("/ingest/orders", { orders: [first, second, first] });
      expect(outcomes(record)).toEqual(["created", "updated", "stale"]);
      const ids = succeeded(record).items.map((i: Json) => i.id);
      expect(new Set(ids).size).toBe(1);
      expect(await getOrder(c, first.external_id)).toMatchObject({ version: 2, shipping_method: "Express" });
    });

    it("a shipment re-sent as is is unchanged; with a corrected tracking number it is updated", async () => {
      const c = await h.account();
      const { input } = await anOrder(c);
      const s = shipment(input.external_id);
      expectCreated(await c.ingestAndWait("/ingest/shipments", { shipments: [s] }), "shipment");
      expect(outcomes(await c.ingestAndWait("/ingest/shipments", { shipments: [s] }))).toEqual(["unchanged"]);
      expect((await getOrder(c, input.external_id)).version).toBe(2);
      const fixed = { ...s, tracking_number: "1Z999AA10123456785" };
      expect(outcomes(await c.ingestAndWait("/ingest/shipments", { shipments: [fixed] }))).toEqual([
        "updated",
      ]);
      const stored = await getOrder(c, input.external_id);
      expect(stored.version).toBe(3);
      expect(stored.shipments).toHaveLength(1);
      expect(stored.shipments[0].tracking_number).toBe("1Z999AA10123456785");
      expect(stored.lines.map((l: Json) => l.quantity_shipped)).toEqual([2, 1]);
    });

    it("a disposition whose external_id is already recorded is unchanged", async () => {
      const c = await h.account();
      const { input } = await anOrder(c);
      const r = returnOf(input.external_id);
      succeeded(await c.ingestAndWait("/ingest/returns", { returns: [r] }));
      const d = disposition("L1", 1);
      expectCreated(
        await c.ingestAndWait(`/ingest/returns/${r.external_id}/dispositions`, { dispositions: [d] }),
        "disposition",
      );
      expect(
        outcomes(
          await c.ingestAndWait(`/ingest/returns/${r.external_id}/dispositions`, { dispositions: [d] }),
        ),
      ).toEqual(["unchanged"]);
      const ret = await getReturn(c, r.external_id);
      expect(ret.dispositions).toHaveLength(1);
      expect(ret).toMatchObject({
        status: "received",
        items: [{ quantity_dispositioned: 1 }, { quantity_dispositioned: 0 }],
      });
    });

    it("a return re-sent as is is stale, and an update keeps its status when none is sent", async () => {
      const c = await h.account();
      const { input } = await anOrder(c);
      const r = returnOf(input.external_id, { status: "approved" });
      succeeded(await c.ingestAndWait("/ingest/returns", { returns: [r] }));
      expect(outcomes(await c.ingestAndWait("/ingest/returns", { returns: [r] }))).toEqual(["stale"]);
      const { status, ...rest } = r;
      const update = { ...rest, reason: "Changed mind", source_updated_at: at(200) };
      expect(outcomes(await c.ingestAndWait("/ingest/returns", { returns: [update] }))).toEqual(["updated"]);
      expect(await getReturn(c, r.external_id)).toMatchObject({
        status: "approved",
        reason: "Changed mind",
        version: 2,
      });
    });
  });

  describe("business rules: the request fails, every offending item is listed, and nothing is applied", () => {
    it("a shipment for an unknown order: order_not_found", async () => {
      const c = await h.account();
      const record = await c.ingestAndWait("/ingest/shipments", { shipments: [shipment(uid("ORD"))] });
      expect(failedWith(record)).toEqual([["/shipments/0/order_id", "order_not_found"]]);
      expect(record).toMatchObject({ result: null, error: null, attempts: 1 });
      expect(typeof record.errors[0].message).toBe("string");
      expect(record.completed_at).toMatch(ISO);
    });

    it("over-shipping a line: quantity_exceeds_ordered", async () => {
      const c = await h.account();
      const { input } = await anOrder(c);
      const record = await c.ingestAndWait("/ingest/shipments", {
        shipments: [shipment(input.external_id, { lines: [{ line_id: "L1", quantity: 3 }] })],
      });
      expect(failedWith(record)).toEqual([["/shipments/0/lines/0/quantity", "quantity_exceeds_ordered"]]);
      expect(await getOrder(c, input.external_id)).toMatchObject({
        status: "open",
        version: 1,
        shipments: [],
      });
    });

    it("over-shipping across two shipments, and an unknown line", async () => {
      const c = await h.account();
      const { input } = await anOrder(c);
      succeeded(
        await c.ingestAndWait("/ingest/shipments", {
          shipments: [shipment(input.external_id, { lines: [{ line_id: "L1", quantity: 1 }] })],
        }),
      );
      const record = await c.ingestAndWait("/ingest/shipments", {
        shipments: [
          shipment(input.external_id, {
            lines: [
              { line_id: "L1", quantity: 2 },
              { line_id: "L9", quantity: 1 },
            ],
          }),
        ],
      });
      expect(failedWith(record)).toEqual(
        expect.arrayContaining([
          ["/shipments/0/lines/0/quantity", "quantity_exceeds_ordered"],
          ["/shipments/0/lines/1/line_id", "line_not_found"],
        ]),
      );
      expect((await getOrder(c, input.external_id)).lines[0].quantity_shipped).toBe(1);
    });

    it("a batch with one good and one bad shipment applies neither", async () => {
      const c = await h.account();
      const { input } = await anOrder(c);
      const good = shipment(input.external_id, { lines: [{ line_id: "L2", quantity: 1 }] });
      const bad = shipment(input.external_id, { lines: [{ line_id: "L1", quantity: 5 }] });
      const record = await c.ingestAndWait("/ingest/shipments", { shipments: [good, bad] });
      expect(failedWith(record)).toEqual([["/shipments/1/lines/0/quantity", "quantity_exceeds_ordered"]]);
      const stored = await getOrder(c, input.external_id);
      expect(stored).toMatchObject({ status: "open", version: 1, shipments: [] });
      expect(stored.lines.map((l: Json) => l.quantity_shipped)).toEqual([0, 0]);
      // The same body fails again; the good shipment alone then succeeds.
      expect(failedWith(await c.ingestAndWait("/ingest/shipments", { shipments: [good, bad] }))).toEqual([
        ["/shipments/1/lines/0/quantity", "quantity_exceeds_ordered"],
      ]);
      expectCreated(await c.ingestAndWait("/ingest/shipments", { shipments: [good] }), "shipment");
    });

    it("a batch with one new order and one forbidden update applies neither", async () => {
      const c = await h.account();
      const { input } = await anOrder(c);
      succeeded(await c.ingestAndWait("/ingest/shipments", { shipments: [shipment(input.external_id)] }));
      const fresh = order();
      const cancel = { ...input, status: "cancelled" as const, source_updated_at: at(10) };
      const record = await c.ingestAndWait("/ingest/orders", { orders: [fresh, cancel] });
      expect(failedWith(record)).toEqual([["/orders/1/status", "order_has_shipments"]]);
      expectProblem(await c.get(`/orders/${fresh.external_id}`), 404, "not_found");
      expect(await getOrder(c, input.external_id)).toMatchObject({ status: "shipped", version: 2 });
    });

    it("a line cannot drop below its shipped quantity, nor be removed once shipped", async () => {
      const c = await h.account();
      const { input } = await anOrder(c);
      succeeded(await c.ingestAndWait("/ingest/shipments", { shipments: [shipment(input.external_id)] }));
      const lower = {
        ...input,
        lines: [{ ...input.lines[0]!, quantity: 1 }, input.lines[1]!],
        source_updated_at: at(10),
      };
      expect(failedWith(await c.ingestAndWait("/ingest/orders", { orders: [lower] }))).toEqual([
        ["/orders/0/lines/0/quantity", "line_below_shipped"],
      ]);
      const removed = { ...input, lines: [input.lines[0]!], source_updated_at: at(10) };
      expect(failedWith(await c.ingestAndWait("/ingest/orders", { orders: [removed] }))).toEqual([
        ["/orders/0/lines", "line_removal_forbidden"],
      ]);
      expect((await getOrder(c, input.external_id)).version).toBe(2);
    });

    it("a cancelled order cannot be shipped: order_cancelled", async () => {
      const c = await h.account();
      const { input } = await anOrder(c, { status: "cancelled" });
      expect(
        failedWith(await c.ingestAndWait("/ingest/shipments", { shipments: [shipment(input.external_id)] })),
      ).toEqual([["/shipments/0/order_id", "order_cancelled"]]);
    });

    it("a shipment re-sent with other lines: shipment_conflict", async () => {
      const c = await h.account();
      const { input } = await anOrder(c);
      const s = shipment(input.external_id, { lines: [{ line_id: "L1", quantity: 1 }] });
      succeeded(await c.ingestAndWait("/ingest/shipments", { shipments: [s] }));
      const other = { ...s, lines: [{ line_id: "L1", quantity: 2 }] };
      expect(failedWith(await c.ingestAndWait("/ingest/shipments", { shipments: [other] }))).toEqual([
        ["/shipments/0/lines", "shipment_conflict"],
      ]);
    });

    it("over-returning a line across active returns: return_quantity_exceeded", async () => {
      const c = await h.account();
      const { input } = await anOrder(c);
      const first = returnOf(input.external_id, {
        items: [{ line_id: "L1", quantity: 1, reason_code: "damaged" }],
      });
      succeeded(await c.ingestAndWait("/ingest/returns", { returns: [first] }));
      const second = returnOf(input.external_id, {
        items: [{ line_id: "L1", quantity: 2, reason_code: "damaged" }],
      });
      expect(failedWith(await c.ingestAndWait("/ingest/returns", { returns: [second] }))).toEqual([
        ["/returns/0/items/0/quantity", "return_quantity_exceeded"],
      ]);
      expectProblem(await c.get(`/returns/${second.external_id}`), 404, "not_found");
      expect((await getOrder(c, input.external_id)).lines[0].quantity_returned).toBe(1);
      // A cancelled return no longer counts: cancelling the first makes room for the second.
      succeeded(
        await c.ingestAndWait("/ingest/returns", {
          returns: [{ ...first, status: "cancelled", source_updated_at: at(300) }],
        }),
      );
      expect((await getOrder(c, input.external_id)).lines[0].quantity_returned).toBe(0);
      expectCreated(await c.ingestAndWait("/ingest/returns", { returns: [second] }), "return");
    });

    it("a return for an unknown order or line", async () => {
      const c = await h.account();
      const { input } = await anOrder(c);
      const record = await c.ingestAndWait("/ingest/returns", {
        returns: [
          returnOf(uid("ORD")),
          returnOf(input.external_id, { items: [{ line_id: "L9", quantity: 1, reason_code: "other" }] }),
        ],
      });
      expect(failedWith(record)).toEqual([
        ["/returns/0/order_id", "order_not_found"],
        ["/returns/1/items/0/line_id", "line_not_found"],
      ]);
    });

    it.each([
      ["requested", "received"],
      ["requested", "in_transit"],
      ["in_transit", "approved"],
      ["rejected", "approved"],
      ["cancelled", "requested"],
    ] as const)("a return cannot go from %s to %s: invalid_status_transition", async (from, to) => {
      const c = await h.account();
      const { input } = await anOrder(c);
      const r = returnOf(input.external_id, { status: from });
      succeeded(await c.ingestAndWait("/ingest/returns", { returns: [r] }));
      const record = await c.ingestAndWait("/ingest/returns", {
        returns: [{ ...r, status: to, source_updated_at: at(300) }],
      });
      expect(failedWith(record)).toEqual([["/returns/0/status", "invalid_status_transition"]]);
      expect(await getReturn(c, r.external_id)).toMatchObject({ status: from, version: 1 });
    });

    it.each([
      ["requested", "approved"],
      ["approved", "in_transit"],
      ["in_transit", "received"],
      ["approved", "cancelled"],
      ["requested", "rejected"],
      ["approved", "approved"],
    ] as const)("a return may go from %s to %s", async (from, to) => {
      const c = await h.account();
      const { input } = await anOrder(c);
      const r = returnOf(input.external_id, { status: from });
      succeeded(await c.ingestAndWait("/ingest/returns", { returns: [r] }));
      succeeded(
        await c.ingestAndWait("/ingest/returns", {
          returns: [{ ...r, status: to, reason: "x", source_updated_at: at(300) }],
        }),
      );
      expect((await getReturn(c, r.external_id)).status).toBe(to);
    });

    it("over-dispositioning a line: disposition_quantity_exceeded; a line not in the return: line_not_in_return", async () => {
      const c = await h.account();
      const { input } = await anOrder(c);
      const r = returnOf(input.external_id, {
        items: [{ line_id: "L1", quantity: 1, reason_code: "damaged" }],
      });
      succeeded(await c.ingestAndWait("/ingest/returns", { returns: [r] }));
      const record = await c.ingestAndWait(`/ingest/returns/${r.external_id}/dispositions`, {
        dispositions: [disposition("L1", 1), disposition("L2", 1), disposition("L1", 1)],
      });
      expect(failedWith(record)).toEqual([
        ["/dispositions/1/line_id", "line_not_in_return"],
        ["/dispositions/2/quantity", "disposition_quantity_exceeded"],
      ]);
      expect(await getReturn(c, r.external_id)).toMatchObject({
        status: "approved",
        version: 1,
        dispositions: [],
        items: [{ quantity_dispositioned: 0 }],
      });
    });

    it.each(["rejected", "cancelled"] as const)(
      "dispositions for a %s return: return_closed at pointer ''",
      async (status) => {
        const c = await h.account();
        const { input } = await anOrder(c);
        const r = returnOf(input.external_id, { status });
        const [returnId] = expectCreated(
          await c.ingestAndWait("/ingest/returns", { returns: [r] }),
          "return",
        );
        expect(
          failedWith(
            await c.ingestAndWait(`/ingest/returns/${returnId}/dispositions`, {
              dispositions: [disposition("L1", 1)],
            }),
          ),
        ).toEqual([["", "return_closed"]]);
      },
    );
  });
});
