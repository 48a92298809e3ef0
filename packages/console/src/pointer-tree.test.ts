import { describe, expect, it } from "vitest";
import { pointerTokens, pointerTree } from "./pointer-tree.ts";

describe("pointerTokens", () => {
  it.each([
    ["", []],
    ["/returns/3/items/0/quantity", ["returns", "3", "items", "0", "quantity"]],
    ["/metadata/a~1b/c~0d", ["metadata", "a/b", "c~d"]],
  ])("%j → %j", (pointer, tokens) => {
    expect(pointerTokens(pointer)).toEqual(tokens);
  });
});

describe("pointerTree", () => {
  it("gathers errors on shared paths, array items in index order, body-level errors at the root", () => {
    const tree = pointerTree([
      { pointer: "/returns/3/items/0/quantity", code: "quantity_exceeds_ordered", message: "5 > 2" },
      { pointer: "/returns/1/order_id", code: "order_not_found", message: "no order X" },
      { pointer: "/returns/3/items/0/line_id", code: "line_not_found", message: "no line 9" },
      { pointer: "", code: "return_not_found", message: "no return" },
    ]);
    expect(tree.errors.map((e) => e.code)).toEqual(["return_not_found"]);
    const returns = tree.children[0];
    expect(returns?.key).toBe("returns");
    expect(returns?.children.map((c) => c.key)).toEqual([1, 3]);
    const item = returns?.children[1]?.children[0]?.children[0];
    expect(item?.key).toBe(0);
    expect(item?.children.map((c) => [c.key, c.errors.map((e) => e.code)])).toEqual([
      ["quantity", ["quantity_exceeds_ordered"]],
      ["line_id", ["line_not_found"]],
    ]);
  });
});
