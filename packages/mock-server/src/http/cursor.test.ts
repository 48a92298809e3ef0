import { describe, expect, it } from "vitest";
import { decodeCursor, encodeCursor } from "./cursor.ts";
import { HttpProblem } from "./problem.ts";

describe("cursors", () => {
  it("encode exactly as the server does (base64url JSON of position and sorted filters)", () => {
    const cursor = encodeCursor(42, { status: "open", source: "shopify", updated_since: undefined });
    expect(cursor).toBe(Buffer.from(JSON.stringify({ p: 42, f: { source: "shopify", status: "open" } })).toString("base64url"));
  });

  it("round-trip a position with the same filters, whatever their order", () => {
    expect(decodeCursor(encodeCursor(["W1", "SKU"], { b: "2", a: "1" }), { a: "1", b: "2" })).toEqual(["W1", "SKU"]);
    expect(decodeCursor(undefined, {})).toBeNull();
  });

  it.each([
    ["other filters", encodeCursor(1, { status: "open" }), { status: "shipped" }],
    ["filters dropped", encodeCursor(1, { status: "open" }), {}],
    ["not base64 JSON", "%%%not-a-cursor", {}],
    ["JSON without a position", Buffer.from("{}").toString("base64url"), {}],
  ])("refuse a cursor with %s as 400 invalid_cursor", (_name, cursor, filters) => {
    expect(() => decodeCursor(cursor, filters)).toThrow(HttpProblem);
    try {
      decodeCursor(cursor, filters);
    } catch (err) {
      expect((err as HttpProblem).code).toBe("invalid_cursor");
    }
  });
});
