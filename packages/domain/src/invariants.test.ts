import { at } from "@oisr/contract/fixtures";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { callerIntent, deriveOrderStatus, isActiveReturn } from "./derive.ts";
import type { ReturnInput } from "./input.ts";
import type { MemoryState } from "./memory-state.ts";
import type { ApplyResult, ReturnStatus } from "./model.ts";
import { dispositionInput, Harness, orderInput, returnInput, shipmentInput } from "./test-support.ts";

// Random request sequences against two small orders; after every request the derived values
// must match a recomputation from scratch, and a failed request must leave no trace.

// Weighted towards valid references so that most requests succeed and build up state.
const lineId = fc.oneof(
  { arbitrary: fc.constantFrom("L1", "L2"), weight: 9 },
  { arbitrary: fc.constant("L3"), weight: 1 },
);
const qty = fc.oneof(
  { arbitrary: fc.constant(1), weight: 4 },
  { arbitrary: fc.integer({ min: 2, max: 3 }), weight: 1 },
);
const order = fc.oneof(
  { arbitrary: fc.constantFrom("SO-1", "SO-2", "ord_1"), weight: 9 },
  { arbitrary: fc.constant("SO-404"), weight: 1 },
);
const lines = fc.uniqueArray(fc.record({ line_id: lineId, quantity: qty }), {
  selector: (l) => l.line_id,
  minLength: 1,
  maxLength: 2,
});
const rma = fc.constantFrom("RMA-1", "RMA-2", "RMA-3");
const status = fc.constantFrom<ReturnStatus>(
  "requested",
  "approved",
  "rejected",
  "cancelled",
  "in_transit",
  "received",
);

type Step = (h: Harness, tick: number) => ApplyResult;

const shipmentStep = fc.record({ ext: fc.constantFrom("SH-1", "SH-2", "SH-3", "SH-4"), order, lines }).map(
  (s): Step =>
    (h) =>
      h.run("shipments", {
        shipments: [shipmentInput({ external_id: s.ext, order_id: s.order, lines: s.lines })],
      }),
);

const returnStep = fc
  .record({ ext: rma, order, status: fc.option(status, { nil: undefined, freq: 2 }), items: lines })
  .map(
    (r): Step =>
      (h, tick) =>
        h.run("returns", {
          returns: [
            returnInput({
              external_id: r.ext,
              order_id: r.order,
              // Every status, "completed" too: the spec refuses it, and the rules must as well.
              status: r.status as ReturnInput["status"],
              // `tick` seconds after a default return's source_updated_at (at(121)).
              source_updated_at: at(121 + tick / 60),
              items: r.items.map((i) => ({ ...i, reason_code: "other" as const })),
            }),
          ],
        }),
  );

const dispositionStep = fc
  .record({
    ret: rma,
    line: lineId,
    quantity: qty,
    ext: fc.option(fc.constantFrom("D-1", "D-2"), { nil: undefined }),
  })
  .map(
    (d): Step =>
      (h) =>
        h.run(
          "dispositions",
          { dispositions: [dispositionInput({ line_id: d.line, quantity: d.quantity, external_id: d.ext })] },
          { returnId: d.ret },
        ),
  );

const orderStep = fc
  .record({
    ext: fc.constantFrom("SO-1", "SO-2"),
    l1: fc.integer({ min: 1, max: 4 }),
    intent: fc.constantFrom("open", "open", "on_hold", "cancelled"),
  })
  .map(
    (o): Step =>
      (h, tick) =>
        h.run("orders", {
          orders: [
            orderInput({
              external_id: o.ext,
              status: o.intent as "open" | "on_hold" | "cancelled",
              // `tick` seconds after a default order's source_updated_at (at(1)).
              source_updated_at: at(1 + tick / 60),
              lines: [
                { line_id: "L1", sku: "A", quantity: o.l1, unit_price: "1.00" },
                { line_id: "L2", sku: "B", quantity: 2, unit_price: "1.00" },
              ],
            }),
          ],
        }),
  );

const step: fc.Arbitrary<Step> = fc.oneof(
  { arbitrary: shipmentStep, weight: 3 },
  { arbitrary: returnStep, weight: 3 },
  { arbitrary: dispositionStep, weight: 3 },
  { arbitrary: orderStep, weight: 1 },
);

function checkInvariants(state: MemoryState): void {
  for (const o of state.allOrders()) {
    const shipments = state.allShipments().filter((s) => s.order_id === o.id);
    const returns = state.returnsForOrder(o.id).filter((r) => isActiveReturn(r.status));
    for (const line of o.lines) {
      const shipped = shipments
        .flatMap((s) => s.lines)
        .filter((l) => l.line_id === line.line_id)
        .reduce((n, l) => n + l.quantity, 0);
      const returned = returns
        .flatMap((r) => r.items)
        .filter((i) => i.line_id === line.line_id)
        .reduce((n, i) => n + i.quantity, 0);
      expect(line.quantity_shipped).toBe(shipped);
      expect(line.quantity_returned).toBe(returned);
      expect(shipped).toBeLessThanOrEqual(line.quantity);
      expect(returned).toBeLessThanOrEqual(line.quantity);
    }
    expect(o.shipments.map((s) => s.id).sort()).toEqual(shipments.map((s) => s.id).sort());
    expect(o.status).toBe(deriveOrderStatus(callerIntent(o.status), o.lines));
    if (o.shipments.length > 0) expect(o.status).not.toBe("cancelled");
  }
  for (const r of state.allReturns()) {
    for (const item of r.items) {
      const done = r.dispositions
        .filter((d) => d.line_id === item.line_id)
        .reduce((n, d) => n + d.quantity, 0);
      expect(item.quantity_dispositioned).toBe(done);
      expect(done).toBeLessThanOrEqual(item.quantity);
    }
    if (r.dispositions.length > 0) expect(["received", "completed"]).toContain(r.status);
    const fully = r.items.every((i) => i.quantity_dispositioned >= i.quantity);
    if (r.dispositions.length > 0 && fully) expect(r.status).toBe("completed");
    if (r.status === "completed") expect(r.dispositions.length).toBeGreaterThan(0);
    expect(r.completed_at === null).toBe(r.status !== "completed");
    expect(r.received_at === null).toBe(!["received", "completed"].includes(r.status));
    expect(r.order_external_id).toBe(state.orderById(r.order_id)?.external_id);
  }
}

describe("invariants over random request sequences", () => {
  it("derived values always match a recomputation; failures change nothing", () => {
    fc.assert(
      fc.property(fc.array(step, { maxLength: 25 }), (steps) => {
        const h = new Harness();
        h.ok("orders", { orders: [orderInput(), orderInput({ external_id: "SO-2" })] });
        h.ok("returns", { returns: [returnInput({ status: "approved" })] });
        steps.forEach((run, tick) => {
          const before = JSON.stringify([h.state.allOrders(), h.state.allReturns(), h.state.allShipments()]);
          const versions = new Map(
            [...h.state.allOrders(), ...h.state.allReturns()].map((e) => [e.id, e.version]),
          );
          const res = run(h, tick);
          const after = JSON.stringify([h.state.allOrders(), h.state.allReturns(), h.state.allShipments()]);
          if (res.status === "failed") {
            expect(res.errors.length).toBeGreaterThan(0);
            expect(after).toBe(before);
          } else {
            for (const e of [...res.changes.orders, ...res.changes.returns]) {
              expect(e.version).toBeGreaterThanOrEqual(versions.get(e.id) ?? 1);
            }
            for (const ev of res.events)
              expect(ev.return.version).toBeGreaterThan(versions.get(ev.return.id) ?? 0);
          }
          checkInvariants(h.state);
        });
      }),
      { numRuns: 300 },
    );
  });
});
