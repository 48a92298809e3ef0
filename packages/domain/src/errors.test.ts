import { describe, expect, it } from "vitest";
import { duplicateLineErrors, pointer } from "./errors.ts";

describe("pointer", () => {
  it.each<[Array<string | number>, string]>([
    [[], ""],
    [["returns", 3, "items", 0, "quantity"], "/returns/3/items/0/quantity"],
    [["metadata", "a/b~c"], "/metadata/a~1b~0c"],
  ])("%j → %s", (segments, expected) => {
    expect(pointer(...segments)).toBe(expected);
  });
});

describe("duplicateLineErrors", () => {
  it("reports each repeat after the first, at its own line_id", () => {
    const errors = duplicateLineErrors(
      [{ line_id: "a" }, { line_id: "b" }, { line_id: "a" }, { line_id: "a" }],
      "/orders/2/lines",
    );
    expect(errors.map((e) => [e.pointer, e.code])).toEqual([
      ["/orders/2/lines/2/line_id", "duplicate_line_id"],
      ["/orders/2/lines/3/line_id", "duplicate_line_id"],
    ]);
  });
});
