import { describe, expect, it } from "vitest";
import { callerIntent, deriveOrderStatus } from "./derive.ts";
import type { CallerOrderStatus, OrderStatus } from "./model.ts";

describe("deriveOrderStatus (decision 001)", () => {
  const none = [
    { quantity: 2, quantity_shipped: 0 },
    { quantity: 1, quantity_shipped: 0 },
  ];
  const some = [
    { quantity: 2, quantity_shipped: 1 },
    { quantity: 1, quantity_shipped: 0 },
  ];
  const all = [
    { quantity: 2, quantity_shipped: 2 },
    { quantity: 1, quantity_shipped: 1 },
  ];

  it.each<[CallerOrderStatus, typeof none, OrderStatus]>([
    ["open", none, "open"],
    ["open", some, "partially_shipped"],
    ["open", all, "shipped"],
    ["on_hold", none, "on_hold"],
    ["on_hold", some, "on_hold"],
    ["on_hold", all, "on_hold"],
    ["cancelled", none, "cancelled"],
  ])("intent %s with shipping %j is %s", (intent, lines, expected) => {
    expect(deriveOrderStatus(intent, lines)).toBe(expected);
  });

  it.each([
    ["open", "open"],
    ["on_hold", "on_hold"],
    ["cancelled", "cancelled"],
    ["shipped", "open"],
    ["partially_shipped", "open"],
    [undefined, "open"],
    [null, "open"],
  ])("the caller intent behind %s is %s", (status, intent) => {
    expect(callerIntent(status)).toBe(intent);
  });
});
