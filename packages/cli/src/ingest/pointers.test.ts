import { describe, expect, it } from "vitest";
import { mapErrors } from "./pointers.ts";

const sent = [
  { batchIndex: 0, line: 1 },
  { batchIndex: 2, line: 7, subLines: { key: "lines", lines: [7, 8, 9] } },
];

describe("mapErrors", () => {
  it.each([
    ["/orders/0/currency", 0, 1, "/currency"],
    ["/orders/1/lines/2/quantity", 2, 9, "/lines/2/quantity"],
    ["/orders/1", 2, 7, ""],
  ])("maps %s to batch item %i, line %i, pointer %s", (pointer, batchIndex, line, itemPointer) => {
    const { byItem, unmapped } = mapErrors([{ pointer, code: "c", message: "m" }], "orders", sent, "r1");
    expect(unmapped).toEqual([]);
    expect(byItem.get(batchIndex)).toEqual([
      { line, pointer: itemPointer, code: "c", message: "m", request_id: "r1" },
    ]);
  });

  it.each(["", "/orders", "/returns/0/x", "/orders/5/x"])("leaves %j unmapped", (pointer) => {
    const { byItem, unmapped } = mapErrors([{ pointer, code: "c", message: "m" }], "orders", sent);
    expect(byItem.size).toBe(0);
    expect(unmapped).toHaveLength(1);
  });
});
