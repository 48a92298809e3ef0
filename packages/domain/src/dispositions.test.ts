import { at } from "@oisr/contract/fixtures";
import { describe, expect, it } from "vitest";
import { applyDispositions } from "./dispositions.ts";
import { MemoryState } from "./memory-state.ts";
import {
  dispositionInput,
  failedWith,
  Harness,
  orderInput,
  returnInput,
  testContext,
} from "./test-support.ts";

// Return RMA-1 for SO-1: L1 x2, L2 x1.
function withReturn(status: "requested" | "approved" | "rejected" | "cancelled" = "approved"): Harness {
  const h = new Harness();
  h.ok("orders", { orders: [orderInput()] });
  h.ok("returns", {
    returns: [
      returnInput({
        status,
        items: [
          { line_id: "L1", quantity: 2, reason_code: "damaged" },
          { line_id: "L2", quantity: 1, reason_code: "size_or_fit" },
        ],
      }),
    ],
  });
  return h;
}

describe("applyDispositions: effects", () => {
  it("the first disposition receives the return and emits updated + disposition.created", () => {
    const h = withReturn();
    // The example disposition without its optional location: it is null.
    const { location_id, ...input } = dispositionInput({ external_id: "D-1", condition: "like_new" });
    const res = h.ok("dispositions", { dispositions: [input] }, { returnId: "RMA-1" });
    expect(res.result).toMatchObject({
      created: 1,
      items: [{ index: 0, type: "disposition", id: "dsp_1", outcome: "created" }],
    });
    const ret = h.state.returnById("ret_1");
    expect(ret).toMatchObject({
      status: "received",
      received_at: Harness.at(3),
      completed_at: null,
      version: 2,
      updated_at: Harness.at(3),
      items: [{ quantity_dispositioned: 1 }, { quantity_dispositioned: 0 }],
    });
    expect(ret?.dispositions).toEqual([
      {
        id: "dsp_1",
        external_id: "D-1",
        return_id: "ret_1",
        line_id: "L1",
        quantity: 1,
        outcome: "restock",
        condition: "like_new",
        location_id: null,
        decided_at: at(240),
        note: null,
        created_at: Harness.at(3),
      },
    ]);
    expect(res.events.map((e) => e.type)).toEqual(["return.updated", "return.disposition.created"]);
    expect(res.events.every((e) => e.return === res.changes.returns[0])).toBe(true);
    expect(res.changes.orders).toEqual([]);
  });

  it.each(["ret_1", "RMA-1"])("addresses the return by %s", (ref) => {
    const h = withReturn();
    expect(
      h.ok("dispositions", { dispositions: [dispositionInput()] }, { returnId: ref }).result.created,
    ).toBe(1);
  });

  it("each disposition is a version; the last one completes the return", () => {
    const h = withReturn("requested");
    const res = h.ok(
      "dispositions",
      {
        dispositions: [
          dispositionInput({ quantity: 2 }),
          dispositionInput({ line_id: "L2", outcome: "dispose" }),
        ],
      },
      { returnId: "RMA-1" },
    );
    expect(
      res.events.map((e) => [e.type, e.return.version, e.return.status, e.return.dispositions.length]),
    ).toEqual([
      ["return.updated", 2, "received", 1],
      ["return.disposition.created", 2, "received", 1],
      ["return.updated", 3, "completed", 2],
      ["return.disposition.created", 3, "completed", 2],
      ["return.completed", 3, "completed", 2],
    ]);
    expect(res.changes.returns).toHaveLength(1);
    expect(h.state.returnById("ret_1")).toMatchObject({
      status: "completed",
      received_at: Harness.at(3),
      completed_at: Harness.at(3),
      version: 3,
    });
  });

  it("a repeated external_id is unchanged, across requests and within one", () => {
    const h = withReturn();
    h.ok("dispositions", { dispositions: [dispositionInput({ external_id: "D-1" })] }, { returnId: "RMA-1" });
    const res = h.ok(
      "dispositions",
      {
        dispositions: [
          dispositionInput({ external_id: "D-1", quantity: 2 }),
          dispositionInput({ external_id: "D-2" }),
          dispositionInput({ external_id: "D-2" }),
        ],
      },
      { returnId: "RMA-1" },
    );
    expect(res.result.items.map((i) => [i.id, i.outcome])).toEqual([
      ["dsp_1", "unchanged"],
      ["dsp_2", "created"],
      ["dsp_2", "unchanged"],
    ]);
    expect(h.state.returnById("ret_1")?.items[0]?.quantity_dispositioned).toBe(2);
  });

  it("dispositions without external_id are always new", () => {
    const h = withReturn();
    const res = h.ok(
      "dispositions",
      { dispositions: [dispositionInput(), dispositionInput()] },
      { returnId: "RMA-1" },
    );
    expect(res.result.created).toBe(2);
  });
});

describe("applyDispositions: rules", () => {
  it("an unknown return fails the whole request", () => {
    const res = failedWith(
      applyDispositions(new MemoryState(), "RMA-404", { dispositions: [dispositionInput()] }, testContext()),
    );
    expect(res.errors).toEqual([
      { pointer: "", code: "return_not_found", message: "return 'RMA-404' not found" },
    ]);
  });

  it.each(["rejected", "cancelled"] as const)("a %s return is closed", (status) => {
    const h = withReturn(status);
    const res = failedWith(
      h.run("dispositions", { dispositions: [dispositionInput()] }, { returnId: "RMA-1" }),
    );
    expect(res.errors.map((e) => [e.pointer, e.code])).toEqual([["", "return_closed"]]);
  });

  it("lists every offending disposition and applies none", () => {
    const h = withReturn();
    const res = failedWith(
      h.run(
        "dispositions",
        {
          dispositions: [
            dispositionInput({ quantity: 1 }),
            dispositionInput({ line_id: "L3" }),
            dispositionInput({ quantity: 2 }),
            dispositionInput({ line_id: "L2", quantity: 2 }),
            dispositionInput({ quantity: 1 }),
          ],
        },
        { returnId: "RMA-1" },
      ),
    );
    expect(res.errors.map((e) => [e.pointer, e.code])).toEqual([
      ["/dispositions/1/line_id", "line_not_in_return"],
      ["/dispositions/2/quantity", "disposition_quantity_exceeded"],
      ["/dispositions/3/quantity", "disposition_quantity_exceeded"],
    ]);
    expect(h.state.returnById("ret_1")).toMatchObject({ version: 1, status: "approved", dispositions: [] });
  });

  it("nothing more can be dispositioned on a completed return", () => {
    const h = withReturn();
    h.ok(
      "dispositions",
      { dispositions: [dispositionInput({ quantity: 2 }), dispositionInput({ line_id: "L2" })] },
      { returnId: "RMA-1" },
    );
    const res = failedWith(
      h.run("dispositions", { dispositions: [dispositionInput({ line_id: "L2" })] }, { returnId: "RMA-1" }),
    );
    expect(res.errors.map((e) => e.code)).toEqual(["disposition_quantity_exceeded"]);
  });
});
