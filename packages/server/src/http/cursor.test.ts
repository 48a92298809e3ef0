import { describe, expect, it } from "vitest";
import { decodeCursor, encodeCursor } from "./cursor.ts";
import { HttpProblem } from "./problem.ts";

describe("cursors", () => {
  it("round-trips a position with the same filters, whatever their order", () => {
    const cursor = encodeCursor(42, { status: "open", source: "shopify" });
    expect(decodeCursor(cursor, { source: "shopify", status: "open" })).toBe(42);
  });

  it("treats an absent cursor as the start", () => {
    expect(decodeCursor(undefined, {})).toBeNull();
  });

  it.each([
    ["other filters", encodeCursor(1, { status: "open" }), { status: "shipped" }],
    ["filters dropped", encodeCursor(1, { status: "open" }), {}],
    ["not base64 JSON", "%%%not-a-cursor", {}],
    ["JSON without a position", Buffer.from("{}").toString("base64url"), {}],
  ])("refuses a cursor with %s as 400 invalid_cursor", (_name, cursor, filters) => {
    try {
      decodeCursor(cursor, filters);
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(HttpProblem);
      expect((err as HttpProblem).status).toBe(400);
      expect((err as HttpProblem).code).toBe("invalid_cursor");
    }
  });
});
