import { at } from "@oisr/contract/fixtures";
import { describe, expect, it } from "vitest";
import type { ShipmentInput } from "./input.ts";
import type { ItemError } from "./model.ts";
import { failedWith, Harness, orderInput, shipmentInput } from "./test-support.ts";

function withOrder(...overrides: Parameters<typeof orderInput>): Harness {
  const h = new Harness();
  h.ok("orders", { orders: [orderInput(...overrides)] });
  return h;
}

describe("applyShipments: effects", () => {
  it("records the shipment and updates the order lines, status, version and summary", () => {
    const h = withOrder();
    // The example shipment without its optional service, tracking URL and location: they are null.
    const { service, tracking_url, location_id, ...input } = shipmentInput({
      lines: [{ line_id: "L1", quantity: 1 }],
      tracking_number: "1Z",
    });
    const res = h.ok("shipments", { shipments: [input] });
    expect(res.result).toMatchObject({
      created: 1,
      items: [{ index: 0, type: "shipment", id: "shp_1", outcome: "created" }],
    });
    expect(res.changes.shipments).toEqual([
      {
        id: "shp_1",
        external_id: "SH-1",
        order_id: "ord_1",
        carrier: "UPS",
        service: null,
        tracking_number: "1Z",
        tracking_url: null,
        shipped_at: at(60),
        location_id: null,
        lines: [{ line_id: "L1", quantity: 1 }],
        created_at: Harness.at(2),
        updated_at: Harness.at(2),
      },
    ]);
    const order = h.state.orderById("ord_1");
    expect(order).toMatchObject({ status: "partially_shipped", version: 2, updated_at: Harness.at(2) });
    expect(order?.lines.map((l) => l.quantity_shipped)).toEqual([1, 0]);
    expect(order?.shipments).toEqual([
      {
        id: "shp_1",
        external_id: "SH-1",
        carrier: "UPS",
        service: null,
        tracking_number: "1Z",
        tracking_url: null,
        shipped_at: at(60),
        location_id: null,
        lines: [{ line_id: "L1", quantity: 1 }],
        created_at: Harness.at(2),
      },
    ]);
  });

  it("finds the order by server id as well as external_id, and sums shipments of one batch", () => {
    const h = withOrder();
    const res = h.ok("shipments", {
      shipments: [
        shipmentInput({ order_id: "ord_1", lines: [{ line_id: "L1", quantity: 1 }] }),
        shipmentInput({
          external_id: "SH-2",
          lines: [
            { line_id: "L1", quantity: 1 },
            { line_id: "L2", quantity: 1 },
          ],
        }),
      ],
    });
    expect(res.changes.orders).toHaveLength(1);
    expect(h.state.orderById("ord_1")).toMatchObject({ status: "shipped", version: 3 });
    expect(h.state.orderById("ord_1")?.shipments.map((s) => s.id)).toEqual(["shp_1", "shp_2"]);
  });

  it("a hold outranks shipping progress in the derived status", () => {
    const h = withOrder({ status: "on_hold" });
    h.ok("shipments", { shipments: [shipmentInput()] });
    expect(h.state.orderById("ord_1")?.status).toBe("on_hold");
    h.ok("orders", { orders: [orderInput({ status: "open", source_updated_at: at(1440) })] });
    expect(h.state.orderById("ord_1")?.status).toBe("shipped");
  });
});

describe("applyShipments: re-sending", () => {
  it("the same external_id and lines (in any order) is unchanged and touches nothing", () => {
    const h = withOrder();
    h.ok("shipments", { shipments: [shipmentInput()] });
    const res = h.ok("shipments", {
      shipments: [
        shipmentInput({
          lines: [
            { line_id: "L2", quantity: 1 },
            { line_id: "L1", quantity: 2 },
          ],
        }),
      ],
    });
    expect(res.result.items).toEqual([{ index: 0, type: "shipment", id: "shp_1", outcome: "unchanged" }]);
    expect(res.changes).toEqual({ orders: [], returns: [], shipments: [], inventory: [] });
  });

  it("the same lines with new tracking details is updated, in the shipment and the order summary", () => {
    const h = withOrder();
    h.ok("shipments", { shipments: [shipmentInput()] });
    const res = h.ok("shipments", { shipments: [shipmentInput({ tracking_number: "1Z999" })] });
    expect(res.result.items[0]?.outcome).toBe("updated");
    expect(h.state.shipmentByExternalId("SH-1")).toMatchObject({
      tracking_number: "1Z999",
      created_at: Harness.at(2),
      updated_at: Harness.at(3),
    });
    const order = h.state.orderById("ord_1");
    expect(order).toMatchObject({ version: 3, status: "shipped" });
    expect(order?.shipments).toHaveLength(1);
    expect(order?.shipments[0]?.tracking_number).toBe("1Z999");
    expect(order?.lines.map((l) => l.quantity_shipped)).toEqual([2, 1]);
  });
});

describe("applyShipments: rules", () => {
  it.each<[string, (h: Harness) => void, Partial<ShipmentInput>, Array<Omit<ItemError, "message">>]>([
    [
      "unknown order",
      () => {},
      { order_id: "nope" },
      [{ pointer: "/shipments/0/order_id", code: "order_not_found" }],
    ],
    [
      "cancelled order",
      (h) =>
        h.ok("orders", {
          orders: [orderInput({ status: "cancelled", source_updated_at: at(1440) })],
        }),
      {},
      [{ pointer: "/shipments/0/order_id", code: "order_cancelled" }],
    ],
    [
      "unknown line",
      () => {},
      {
        lines: [
          { line_id: "L1", quantity: 1 },
          { line_id: "L9", quantity: 1 },
        ],
      },
      [{ pointer: "/shipments/0/lines/1/line_id", code: "line_not_found" }],
    ],
    [
      "more than ordered",
      () => {},
      { lines: [{ line_id: "L1", quantity: 3 }] },
      [{ pointer: "/shipments/0/lines/0/quantity", code: "quantity_exceeds_ordered" }],
    ],
    [
      "more than ordered counting earlier shipments",
      (h) =>
        h.ok("shipments", {
          shipments: [shipmentInput({ external_id: "SH-0", lines: [{ line_id: "L1", quantity: 2 }] })],
        }),
      {
        lines: [{ line_id: "L1", quantity: 1 }],
      },
      [{ pointer: "/shipments/0/lines/0/quantity", code: "quantity_exceeds_ordered" }],
    ],
    [
      "a line twice",
      () => {},
      {
        lines: [
          { line_id: "L1", quantity: 1 },
          { line_id: "L1", quantity: 1 },
        ],
      },
      [{ pointer: "/shipments/0/lines/1/line_id", code: "duplicate_line_id" }],
    ],
    [
      "a re-send with different lines",
      (h) => h.ok("shipments", { shipments: [shipmentInput()] }),
      { lines: [{ line_id: "L1", quantity: 1 }] },
      [{ pointer: "/shipments/0/lines", code: "shipment_conflict" }],
    ],
    [
      "a re-send for another order",
      (h) => {
        h.ok("orders", { orders: [orderInput({ external_id: "SO-2" })] });
        h.ok("shipments", { shipments: [shipmentInput()] });
      },
      { order_id: "SO-2" },
      [{ pointer: "/shipments/0/order_id", code: "shipment_conflict" }],
    ],
  ])("%s fails", (_, setup, change, expected) => {
    const h = withOrder();
    setup(h);
    const before = h.state.orderById("ord_1");
    const res = failedWith(h.run("shipments", { shipments: [shipmentInput(change)] }));
    expect(res.errors.map(({ pointer, code }) => ({ pointer, code }))).toEqual(expected);
    expect(h.state.orderById("ord_1")).toEqual(before);
  });

  it("validates every item: later items see earlier valid ones, failures are all listed", () => {
    const h = withOrder();
    const res = failedWith(
      h.run("shipments", {
        shipments: [
          shipmentInput({ external_id: "A", lines: [{ line_id: "L1", quantity: 2 }] }),
          shipmentInput({ external_id: "B", lines: [{ line_id: "L1", quantity: 1 }] }),
          shipmentInput({ external_id: "C", order_id: "missing" }),
          shipmentInput({ external_id: "D", lines: [{ line_id: "L2", quantity: 1 }] }),
        ],
      }),
    );
    expect(res.errors.map((e) => [e.pointer, e.code])).toEqual([
      ["/shipments/1/lines/0/quantity", "quantity_exceeds_ordered"],
      ["/shipments/2/order_id", "order_not_found"],
    ]);
    expect(h.state.orderById("ord_1")?.version).toBe(1);
    expect(h.state.allShipments()).toEqual([]);
  });
});
