import { at } from "@oisr/contract/fixtures";
import { describe, expect, it } from "vitest";
import { MemoryState } from "./memory-state.ts";
import { Overlay } from "./overlay.ts";
import { Harness, orderInput, returnInput } from "./test-support.ts";

function twoOrdersOneReturn(): Harness {
  const h = new Harness();
  h.ok("orders", { orders: [orderInput(), orderInput({ external_id: "SO-2" })] });
  h.ok("returns", { returns: [returnInput()] });
  return h;
}

describe("MemoryState", () => {
  it("looks entities up by id and external_id", () => {
    const { state } = twoOrdersOneReturn();
    expect(state.orderByExternalId("SO-2")?.id).toBe("ord_2");
    expect(state.orderById("SO-2")).toBeUndefined();
    expect(state.returnByExternalId("RMA-1")).toBe(state.returnById("ret_1"));
    expect(state.returnsForOrder("ord_1").map((r) => r.id)).toEqual(["ret_1"]);
    expect(state.allOrders().map((o) => o.id)).toEqual(["ord_1", "ord_2"]);
  });

  it("stores copies, so the caller mutating what it applied cannot corrupt it", () => {
    const state = new MemoryState();
    const h = new Harness();
    const order = h.ok("orders", { orders: [orderInput()] }).changes.orders[0];
    if (!order) throw new Error("no order");
    state.apply({ orders: [order] });
    const line = order.lines[0];
    if (line) line.quantity = 99;
    expect(state.orderById("ord_1")).toMatchObject({
      currency: "USD",
      lines: [{ quantity: 2 }, { quantity: 1 }],
    });
  });

  it("re-indexes a return that moved to another order", () => {
    const h = twoOrdersOneReturn();
    h.ok("returns", {
      returns: [returnInput({ order_id: "SO-2", source_updated_at: at(1440) })],
    });
    expect(h.state.returnsForOrder("ord_1")).toEqual([]);
    expect(h.state.returnsForOrder("ord_2").map((r) => r.id)).toEqual(["ret_1"]);
  });
});

describe("Overlay", () => {
  it("reads through to the base, sees its own writes first, and lists each change once", () => {
    const { state } = twoOrdersOneReturn();
    const overlay = new Overlay(state);
    const order = state.orderById("ord_1");
    if (!order) throw new Error("no order");
    overlay.putOrder({ ...order, version: 5 });
    overlay.putOrder({ ...order, version: 6 });
    expect(overlay.orderByExternalId("SO-1")?.version).toBe(6);
    expect(overlay.orderById("ord_2")).toBe(state.orderById("ord_2"));
    expect(overlay.changes().orders.map((o) => o.version)).toEqual([6]);
    expect(state.orderById("ord_1")?.version).toBe(order.version);
  });

  it("follows a return moved within the batch in returnsForOrder", () => {
    const { state } = twoOrdersOneReturn();
    const overlay = new Overlay(state);
    const ret = state.returnById("ret_1");
    if (!ret) throw new Error("no return");
    overlay.putReturn({ ...ret, order_id: "ord_2" });
    expect(overlay.returnsForOrder("ord_1")).toEqual([]);
    expect(overlay.returnsForOrder("ord_2").map((r) => r.order_id)).toEqual(["ord_2"]);
  });

  it("merges inventory levels of a location", () => {
    const base = new MemoryState({
      inventory: [
        { location_id: "W", sku: "A", on_hand: 1, available: 1, reserved: null, as_of: "t", updated_at: "t" },
        { location_id: "W", sku: "B", on_hand: 2, available: 2, reserved: null, as_of: "t", updated_at: "t" },
      ],
    });
    const overlay = new Overlay(base);
    overlay.putInventoryLevel({
      location_id: "W",
      sku: "B",
      on_hand: 3,
      available: 3,
      reserved: null,
      as_of: "u",
      updated_at: "u",
    });
    overlay.putInventoryLevel({
      location_id: "W",
      sku: "C",
      on_hand: 4,
      available: 4,
      reserved: null,
      as_of: "u",
      updated_at: "u",
    });
    overlay.putInventoryLevel({
      location_id: "X",
      sku: "A",
      on_hand: 5,
      available: 5,
      reserved: null,
      as_of: "u",
      updated_at: "u",
    });
    expect(
      overlay
        .inventoryLevelsAt("W")
        .map((l) => [l.sku, l.on_hand])
        .sort(),
    ).toEqual([
      ["A", 1],
      ["B", 3],
      ["C", 4],
    ]);
  });
});
