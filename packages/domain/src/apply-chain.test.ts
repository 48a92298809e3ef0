import { at } from "@oisr/contract/fixtures";
import { describe, expect, it } from "vitest";
import { applyBatch } from "./apply-batch.ts";
import { applyChain, applyChainSteps, type ChainedRequest, withChanges } from "./apply-chain.ts";
import { MemoryState } from "./memory-state.ts";
import { mergeReferencedKeys, referencedKeys } from "./referenced-keys.ts";
import {
  dispositionInput,
  orderInput,
  returnInput,
  shipmentInput,
  snapshot,
  succeeded,
  testContext,
} from "./test-support.ts";

/** The reference: each request applied on its own and committed before the next one starts. */
function oneByOne(state: MemoryState, requests: ChainedRequest[]) {
  const ctx = testContext();
  return requests.map((r) => {
    const result = applyBatch(r.kind, state, r.body, ctx, r.params);
    if (result.status === "succeeded") state.apply(result.changes);
    return result;
  });
}

const order = orderInput({ external_id: "SO-1" });
const chainOfCustody: ChainedRequest[] = [
  { kind: "orders", body: { orders: [order] } },
  // Fails (business rule): unknown order. Applies nothing; the rest must not see it.
  { kind: "shipments", body: { shipments: [shipmentInput({ external_id: "SH-X", order_id: "SO-404" })] } },
  { kind: "shipments", body: { shipments: [shipmentInput({ external_id: "SH-1", order_id: "SO-1" })] } },
  { kind: "returns", body: { returns: [returnInput({ external_id: "RMA-1", order_id: "SO-1" })] } },
  { kind: "dispositions", body: { dispositions: [dispositionInput()] }, params: { returnId: "RMA-1" } },
  { kind: "inventory", body: { snapshots: [snapshot()] } },
  {
    kind: "orders",
    body: { orders: [{ ...order, source_updated_at: at(1440), currency: "EUR" }] },
  },
];

describe("applyChain", () => {
  it("gives every request the result it gets when each commits before the next starts", () => {
    const expected = oneByOne(new MemoryState(), chainOfCustody);
    const chained = applyChain(new MemoryState(), chainOfCustody, testContext());
    expect(chained.results).toEqual(expected);
    expect(expected.map((r) => r.status)).toEqual([
      "succeeded",
      "failed",
      "succeeded",
      "succeeded",
      "succeeded",
      "succeeded",
      "failed", // currency cannot change once shipped: sees the shipment applied earlier in the chain
    ]);
  });

  it("combined changes are the final state of each entity once, as one-by-one application stores it", () => {
    const stored = new MemoryState();
    oneByOne(stored, chainOfCustody);
    const { changes, events } = applyChain(new MemoryState(), chainOfCustody, testContext());
    expect(changes.orders).toEqual(stored.allOrders());
    expect(changes.shipments).toEqual(stored.allShipments());
    expect(changes.returns).toEqual(stored.allReturns());
    expect(changes.inventory).toEqual(stored.allInventoryLevels());
    expect(changes.orders.map((o) => o.external_id)).toEqual(["SO-1"]);
    expect(events.map((e) => e.type)).toEqual(
      oneByOne(new MemoryState(), chainOfCustody).flatMap((r) =>
        r.status === "succeeded" ? r.events.map((e) => e.type) : [],
      ),
    );
  });

  it("a failed request in the middle: earlier ones keep their changes, later ones see the state without it", () => {
    const { results, changes } = applyChain(
      new MemoryState(),
      [
        { kind: "orders", body: { orders: [orderInput({ external_id: "A" })] } },
        {
          kind: "orders",
          body: {
            orders: [
              orderInput({ external_id: "B" }),
              orderInput({
                external_id: "C",
                lines: [orderInput().lines[0], orderInput().lines[0]] as never,
              }),
            ],
          },
        },
        { kind: "orders", body: { orders: [orderInput({ external_id: "B" })] } },
      ],
      testContext(),
    );
    expect(results.map((r) => r.status)).toEqual(["succeeded", "failed", "succeeded"]);
    // B of the failed request was never created: the third request creates it (ord_2 went to the
    // failed attempt).
    expect(succeeded(results[2] as never).result.items).toEqual([
      { index: 0, type: "order", id: "ord_3", outcome: "created" },
    ]);
    expect(changes.orders.map((o) => o.external_id)).toEqual(["A", "B"]);
  });

  it("reads through to the state it is given", () => {
    const state = new MemoryState();
    oneByOne(state, [{ kind: "orders", body: { orders: [order] } }]);
    const { results } = applyChain(state, [{ kind: "orders", body: { orders: [order] } }], testContext());
    expect(succeeded(results[0] as never).result.stale).toBe(1);
  });
});

describe("applyChainSteps", () => {
  it("pauses once after each request and ends with what applyChain gives, however long the pauses", async () => {
    const steps = applyChainSteps(new MemoryState(), chainOfCustody, testContext());
    let pauses = 0;
    for (;;) {
      const step = steps.next();
      if (step.done) {
        expect(pauses).toBe(chainOfCustody.length);
        expect(step.value).toEqual(applyChain(new MemoryState(), chainOfCustody, testContext()));
        return;
      }
      pauses += 1;
      // A server gives the event loop a turn here; other work may run before the chain resumes.
      await Promise.resolve();
    }
  });
});

describe("mergeReferencedKeys", () => {
  it("is the union of what each request reads", () => {
    const skuA = { items: [{ sku: "SKU-A", on_hand: 1, available: 1 }] };
    const merged = mergeReferencedKeys([
      referencedKeys("orders", { orders: [orderInput({ external_id: "A" })] }),
      referencedKeys("returns", { returns: [returnInput({ order_id: "A" })] }),
      referencedKeys("inventory", {
        snapshots: [snapshot(skuA), snapshot({ location_id: "WH-2", mode: "full" })],
      }),
      referencedKeys("inventory", { snapshots: [snapshot(skuA)] }),
    ]);
    expect(merged).toEqual({
      orderRefs: ["A"],
      orderExternalIds: ["A"],
      shipmentExternalIds: [],
      returnRefs: ["RMA-1"],
      relatedReturns: true,
      inventoryKeys: [{ location_id: "WH-1", sku: "SKU-A" }],
      inventoryLocations: ["WH-2"],
    });
  });
});

describe("withChanges", () => {
  it("a chain applied over the changes of the chain before it gets what one long chain gets", () => {
    const first = chainOfCustody.slice(0, 3);
    const second = chainOfCustody.slice(3);
    const ctx = testContext();
    const a = applyChain(new MemoryState(), first, ctx);
    const b = applyChain(withChanges(new MemoryState(), a.changes), second, ctx);
    const whole = applyChain(new MemoryState(), chainOfCustody, testContext());
    expect([...a.results, ...b.results]).toEqual(whole.results);
  });
});
