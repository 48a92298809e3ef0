import { at } from "@oisr/contract/fixtures";
import { describe, expect, it } from "vitest";
import type { ReturnInput } from "./input.ts";
import type { ItemError, ReturnStatus } from "./model.ts";
import {
  dispositionInput,
  failedWith,
  Harness,
  orderInput,
  returnInput,
  shipmentInput,
} from "./test-support.ts";

/** `day - 5` days after a default return's source_updated_at (which is day 5, on the fixtures' timeline). */
const later = (day: number) => at(121 + (day - 5) * 1440);

function withOrder(): Harness {
  const h = new Harness();
  h.ok("orders", { orders: [orderInput()] });
  return h;
}

describe("applyReturns: create", () => {
  it("stores the return against the order and emits return.created", () => {
    const h = withOrder();
    // The example RMA without a status (it starts requested), a customer note or item notes.
    const { status, customer_note, ...input } = returnInput({
      reason: "broken",
      tracking: { carrier: "ups", tracking_number: "T1" },
    });
    const res = h.ok("returns", {
      returns: [{ ...input, items: input.items.map(({ note, ...item }) => item) }],
    });
    const expected = {
      id: "ret_1",
      external_id: "RMA-1",
      order_id: "ord_1",
      order_external_id: "SO-1",
      status: "requested",
      reason: "broken",
      customer_note: null,
      items: [
        {
          line_id: "L1",
          sku: "TEE-ORG-BLK-M", // the order line's: the item sends none
          quantity: 1,
          reason_code: "size_or_fit",
          note: null,
          quantity_dispositioned: 0,
        },
        {
          line_id: "L2",
          sku: "MUG-STW-12OZ",
          quantity: 1,
          reason_code: "damaged",
          note: null,
          quantity_dispositioned: 0,
        },
      ],
      tracking: { carrier: "ups", tracking_number: "T1" },
      requested_at: at(120),
      received_at: null,
      completed_at: null,
      dispositions: [],
      source_updated_at: at(121),
      version: 1,
      created_at: Harness.at(2),
      updated_at: Harness.at(2),
    };
    expect(res.result.items).toEqual([{ index: 0, type: "return", id: "ret_1", outcome: "created" }]);
    expect(res.changes.returns).toEqual([expected]);
    expect(res.events).toEqual([{ type: "return.created", return: expected }]);
    // The order shows what is being returned, as a new version.
    const order = h.state.orderById("ord_1");
    expect(order?.lines.map((l) => l.quantity_returned)).toEqual([1, 1]);
    expect(order).toMatchObject({ version: 2, updated_at: Harness.at(2) });
  });

  it("accepts the order by server id, and keeps a sku the caller sends", () => {
    const h = withOrder();
    h.ok("returns", {
      returns: [
        returnInput({
          order_id: "ord_1",
          items: [{ line_id: "L2", sku: "SKU-B-RETURN", quantity: 1, reason_code: "other" }],
        }),
      ],
    });
    expect(h.state.returnByExternalId("RMA-1")).toMatchObject({
      order_id: "ord_1",
      order_external_id: "SO-1",
      items: [{ sku: "SKU-B-RETURN" }],
    });
  });

  it.each<[ReturnStatus, string[], string | null]>([
    ["approved", ["return.created"], null],
    ["received", ["return.created"], Harness.at(2)],
    ["cancelled", ["return.created", "return.cancelled"], null],
    ["rejected", ["return.created"], null],
  ])("a new return may start %s", (status, events, receivedAt) => {
    const h = withOrder();
    const res = h.ok("returns", { returns: [returnInput({ status: status as ReturnInput["status"] })] });
    expect(res.events.map((e) => e.type)).toEqual(events);
    expect(h.state.returnById("ret_1")).toMatchObject({ status, received_at: receivedAt });
    const claimed = status === "cancelled" || status === "rejected" ? 0 : 1;
    expect(h.state.orderById("ord_1")?.lines[0]?.quantity_returned).toBe(claimed);
  });
});

describe("applyReturns: updates", () => {
  it("moves along the state machine with return.updated, and a cancellation releases quantity", () => {
    const h = withOrder();
    h.ok("returns", { returns: [returnInput({ status: "requested" })] });
    const approved = h.ok("returns", {
      returns: [returnInput({ status: "approved", source_updated_at: later(6) })],
    });
    expect(approved.events.map((e) => [e.type, e.return.version, e.return.status])).toEqual([
      ["return.updated", 2, "approved"],
    ]);
    expect(approved.changes.orders).toEqual([]); // quantities did not move
    const cancelled = h.ok("returns", {
      returns: [returnInput({ status: "cancelled", source_updated_at: later(7) })],
    });
    expect(cancelled.events.map((e) => e.type)).toEqual(["return.updated", "return.cancelled"]);
    expect(h.state.orderById("ord_1")).toMatchObject({
      version: 3,
      lines: [{ quantity_returned: 0 }, { quantity_returned: 0 }],
    });
  });

  it("an update without status keeps the current one", () => {
    const h = withOrder();
    h.ok("returns", { returns: [returnInput({ status: "approved" })] });
    const { status, ...withoutStatus } = returnInput({ customer_note: "soon", source_updated_at: later(6) });
    h.ok("returns", { returns: [withoutStatus] });
    expect(h.state.returnById("ret_1")).toMatchObject({
      status: "approved",
      customer_note: "soon",
      version: 2,
    });
  });

  it("stale and unchanged updates emit nothing and keep the version", () => {
    const h = withOrder();
    h.ok("returns", { returns: [returnInput()] });
    const stale = h.ok("returns", { returns: [returnInput({ reason: "x" })] });
    const unchanged = h.ok("returns", { returns: [returnInput({ source_updated_at: later(9) })] });
    expect([stale.result.items[0]?.outcome, unchanged.result.items[0]?.outcome]).toEqual([
      "stale",
      "unchanged",
    ]);
    expect([...stale.events, ...unchanged.events]).toEqual([]);
    expect(h.state.returnById("ret_1")).toMatchObject({
      version: 1,
      reason: returnInput().reason,
      source_updated_at: later(9),
    });
  });

  it("moving a return to another order re-derives both orders", () => {
    const h = withOrder();
    h.ok("orders", { orders: [orderInput({ external_id: "SO-2" })] });
    h.ok("returns", { returns: [returnInput()] });
    h.ok("returns", { returns: [returnInput({ order_id: "SO-2", source_updated_at: later(6) })] });
    expect(h.state.orderById("ord_1")?.lines[0]?.quantity_returned).toBe(0);
    expect(h.state.orderById("ord_2")?.lines[0]?.quantity_returned).toBe(1);
    expect(h.state.returnById("ret_1")).toMatchObject({ order_id: "ord_2", order_external_id: "SO-2" });
  });

  it("shrinking a received return to what is dispositioned completes it", () => {
    const h = withOrder();
    h.ok("returns", {
      returns: [returnInput({ items: [{ line_id: "L1", quantity: 2, reason_code: "damaged" }] })],
    });
    h.ok("dispositions", { dispositions: [dispositionInput()] }, { returnId: "RMA-1" });
    const res = h.ok("returns", {
      returns: [
        returnInput({
          status: "received", // where the disposition moved it
          items: [{ line_id: "L1", quantity: 1, reason_code: "damaged" }],
          source_updated_at: later(9),
        }),
      ],
    });
    expect(res.events.map((e) => e.type)).toEqual(["return.updated", "return.completed"]);
    expect(h.state.returnById("ret_1")).toMatchObject({ status: "completed", completed_at: Harness.at(4) });
  });
});

describe("applyReturns: rules", () => {
  const items = (...q: Array<[string, number]>): ReturnInput["items"] =>
    q.map(([line_id, quantity]) => ({ line_id, quantity, reason_code: "other" }));

  it.each<[string, (h: Harness) => void, Partial<ReturnInput>, Array<Omit<ItemError, "message">>]>([
    [
      "unknown order",
      () => {},
      { order_id: "SO-404" },
      [{ pointer: "/returns/0/order_id", code: "order_not_found" }],
    ],
    [
      "unknown line",
      () => {},
      { items: items(["L1", 1], ["L7", 1]) },
      [{ pointer: "/returns/0/items/1/line_id", code: "line_not_found" }],
    ],
    [
      "a line twice",
      () => {},
      { items: items(["L1", 1], ["L1", 1]) },
      [{ pointer: "/returns/0/items/1/line_id", code: "duplicate_line_id" }],
    ],
    [
      "more than ordered",
      () => {},
      { items: items(["L2", 2]) },
      [{ pointer: "/returns/0/items/0/quantity", code: "return_quantity_exceeded" }],
    ],
    [
      "more than ordered across active returns",
      (h) => h.ok("returns", { returns: [returnInput({ external_id: "RMA-0" })] }),
      {
        items: items(["L1", 2]),
      },
      [{ pointer: "/returns/0/items/0/quantity", code: "return_quantity_exceeded" }],
    ],
    [
      "status completed from the caller (the spec refuses it; the rules do too)",
      () => {},
      { status: "completed" as ReturnInput["status"] },
      [{ pointer: "/returns/0/status", code: "invalid_status_transition" }],
    ],
    [
      "a backward status change",
      (h) => h.ok("returns", { returns: [returnInput({ status: "approved" })] }),
      {
        status: "requested",
        source_updated_at: later(9),
      },
      [{ pointer: "/returns/0/status", code: "invalid_status_transition" }],
    ],
    [
      "leaving a final status",
      (h) => h.ok("returns", { returns: [returnInput({ status: "rejected" })] }),
      {
        status: "approved",
        source_updated_at: later(9),
      },
      [{ pointer: "/returns/0/status", code: "invalid_status_transition" }],
    ],
    [
      "an item below its dispositioned quantity",
      (h) => {
        // L2 is not dispositioned yet, so the return stays received.
        h.ok("returns", { returns: [returnInput({ items: items(["L1", 2], ["L2", 1]) })] });
        h.ok("dispositions", { dispositions: [dispositionInput({ quantity: 2 })] }, { returnId: "RMA-1" });
      },
      { status: "received", items: items(["L1", 1], ["L2", 1]), source_updated_at: later(9) },
      [{ pointer: "/returns/0/items/0/quantity", code: "item_below_dispositioned" }],
    ],
    [
      "removing a dispositioned item",
      (h) => {
        h.ok("returns", { returns: [returnInput({ items: items(["L1", 1], ["L2", 1]) })] });
        h.ok("dispositions", { dispositions: [dispositionInput()] }, { returnId: "RMA-1" });
      },
      { status: "received", items: items(["L2", 1]), source_updated_at: later(9) },
      [{ pointer: "/returns/0/items", code: "item_below_dispositioned" }],
    ],
  ])("%s fails", (_, setup, change, expected) => {
    const h = withOrder();
    setup(h);
    const before = [h.state.orderById("ord_1"), h.state.allReturns()];
    const res = failedWith(h.run("returns", { returns: [returnInput(change)] }));
    expect(res.errors.map(({ pointer, code }) => ({ pointer, code }))).toEqual(expected);
    expect([h.state.orderById("ord_1"), h.state.allReturns()]).toEqual(before);
  });

  it("rejected and cancelled returns leave room for new ones", () => {
    const h = withOrder();
    h.ok("returns", {
      returns: [returnInput({ external_id: "RMA-0", status: "rejected", items: items(["L1", 2]) })],
    });
    h.ok("returns", {
      returns: [returnInput({ external_id: "RMA-9", status: "cancelled", items: items(["L1", 2]) })],
    });
    const res = h.ok("returns", { returns: [returnInput({ items: items(["L1", 2]) })] });
    expect(res.result.created).toBe(1);
    expect(h.state.orderById("ord_1")?.lines[0]?.quantity_returned).toBe(2);
  });

  it("a return may claim the full ordered quantity even before anything shipped", () => {
    const h = withOrder();
    h.ok("shipments", { shipments: [shipmentInput({ lines: [{ line_id: "L2", quantity: 1 }] })] });
    expect(h.ok("returns", { returns: [returnInput({ items: items(["L1", 2]) })] }).result.created).toBe(1);
  });

  it("lists every offending item of the batch and applies none", () => {
    const h = withOrder();
    const res = failedWith(
      h.run("returns", {
        returns: [
          returnInput({ external_id: "A", items: items(["L1", 2]) }),
          returnInput({ external_id: "B", items: items(["L1", 1], ["L9", 1]) }),
          returnInput({ external_id: "C", order_id: "nope" }),
        ],
      }),
    );
    expect(res.errors.map((e) => [e.pointer, e.code])).toEqual([
      ["/returns/1/items/0/quantity", "return_quantity_exceeded"],
      ["/returns/1/items/1/line_id", "line_not_found"],
      ["/returns/2/order_id", "order_not_found"],
    ]);
    expect(h.state.allReturns()).toEqual([]);
  });
});
