import { describe, expect, it } from "vitest";
import { applyBatch, itemCount } from "./apply-batch.ts";
import { MemoryState } from "./memory-state.ts";
import { dispositionInput, orderInput, snapshot, testContext } from "./test-support.ts";

describe("applyBatch", () => {
  it("dispatches by kind", () => {
    const res = applyBatch("inventory", new MemoryState(), { snapshots: [snapshot()] }, testContext());
    expect(res).toMatchObject({
      status: "succeeded",
      result: { items: [{ type: "inventory_snapshot", id: "WH-1" }] },
    });
  });

  it("dispositions need the return from the path: missing it is a programming error", () => {
    expect(() =>
      applyBatch("dispositions", new MemoryState(), { dispositions: [dispositionInput()] }, testContext()),
    ).toThrow(TypeError);
  });

  it("an unknown return in the path is a business failure, not an exception", () => {
    const res = applyBatch(
      "dispositions",
      new MemoryState(),
      { dispositions: [dispositionInput()] },
      testContext(),
      { returnId: "x" },
    );
    expect(res).toMatchObject({ status: "failed", errors: [{ code: "return_not_found" }] });
  });
});

describe("itemCount", () => {
  it("is the length of the batch array of each kind", () => {
    expect(itemCount("orders", { orders: [orderInput(), orderInput()] })).toBe(2);
    expect(itemCount("inventory", { snapshots: [snapshot()] })).toBe(1);
    expect(itemCount("shipments", { shipments: [] })).toBe(0);
    expect(itemCount("returns", { returns: [] })).toBe(0);
    expect(itemCount("dispositions", { dispositions: [dispositionInput()] })).toBe(1);
  });
});
