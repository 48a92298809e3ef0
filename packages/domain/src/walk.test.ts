import { describe, expect, it } from "vitest";
import { dispositionInput, Harness, orderInput, returnInput, shipmentInput } from "./test-support.ts";

describe("a full walk: order → shipments → return → dispositions", () => {
  it("ends with the order shipped and the return completed, with the right events", () => {
    const h = new Harness();

    const order = h.ok("orders", { orders: [orderInput()] });
    expect(order.result.items).toEqual([{ index: 0, type: "order", id: "ord_1", outcome: "created" }]);

    h.ok("shipments", { shipments: [shipmentInput({ lines: [{ line_id: "L1", quantity: 2 }] })] });
    expect(h.state.orderByExternalId("SO-1")).toMatchObject({ status: "partially_shipped" });
    h.ok("shipments", {
      shipments: [
        shipmentInput({ external_id: "SH-2", order_id: "ord_1", lines: [{ line_id: "L2", quantity: 1 }] }),
      ],
    });

    const ret = h.ok("returns", {
      returns: [
        returnInput({
          status: "approved",
          items: [
            { line_id: "L1", quantity: 2, reason_code: "defective" },
            { line_id: "L2", quantity: 1, reason_code: "size_or_fit", sku: "SKU-B" },
          ],
        }),
      ],
    });
    expect(ret.events.map((e) => e.type)).toEqual(["return.created"]);

    const first = h.ok(
      "dispositions",
      { dispositions: [dispositionInput({ external_id: "D-1", quantity: 2 })] },
      { returnId: "RMA-1" },
    );
    const second = h.ok(
      "dispositions",
      { dispositions: [dispositionInput({ external_id: "D-2", line_id: "L2", outcome: "refurbish" })] },
      { returnId: "ret_1" },
    );
    // A retry of the last request changes nothing and emits nothing.
    const replay = h.ok(
      "dispositions",
      { dispositions: [dispositionInput({ external_id: "D-2", line_id: "L2", outcome: "refurbish" })] },
      { returnId: "RMA-1" },
    );

    const events = [...ret.events, ...first.events, ...second.events, ...replay.events];
    expect(events.map((e) => [e.type, e.return.version, e.return.status])).toEqual([
      ["return.created", 1, "approved"],
      ["return.updated", 2, "received"],
      ["return.disposition.created", 2, "received"],
      ["return.updated", 3, "completed"],
      ["return.disposition.created", 3, "completed"],
      ["return.completed", 3, "completed"],
    ]);
    expect(replay.result.items).toEqual([
      { index: 0, type: "disposition", id: "dsp_2", outcome: "unchanged" },
    ]);

    expect(h.state.orderByExternalId("SO-1")).toMatchObject({
      id: "ord_1",
      status: "shipped",
      // created, two shipments, the return's quantities
      version: 4,
      lines: [
        { line_id: "L1", quantity_shipped: 2, quantity_returned: 2 },
        { line_id: "L2", quantity_shipped: 1, quantity_returned: 1 },
      ],
      shipments: [
        { id: "shp_1", external_id: "SH-1" },
        { id: "shp_2", external_id: "SH-2" },
      ],
    });
    expect(h.state.returnByExternalId("RMA-1")).toMatchObject({
      id: "ret_1",
      order_id: "ord_1",
      order_external_id: "SO-1",
      status: "completed",
      received_at: Harness.at(5),
      completed_at: Harness.at(6),
      version: 3,
      items: [{ quantity_dispositioned: 2 }, { quantity_dispositioned: 1 }],
      dispositions: [
        { id: "dsp_1", external_id: "D-1" },
        { id: "dsp_2", external_id: "D-2" },
      ],
    });
  });
});
