// Written in steps, a body's text is JSON.stringify's, character for character (the idempotency
// hash depends on it).
import { describe, expect, it } from "vitest";
import { jsonPieces, stringifyOnLane } from "./json-in-steps.ts";

const cases: [string, unknown][] = [
  [
    "an ingest body",
    { orders: [{ external_id: "a", lines: [{ sku: "x", quantity: 2 }] }, { external_id: "b" }] },
  ],
  [
    "several arrays and scalars",
    { a: [1, 2, 3], b: "s", c: null, d: [], e: {}, f: [[1], { g: [2] }], h: true },
  ],
  ["integer-like keys (ordered first)", { b: 1, 2: [3], 1: "x", a: [{ 10: 1, 9: 2 }] }],
  ["unicode and escapes", { "k\u00e9y": ["\u2028", '"', "\\", "\ud83d\ude00", "\u0001"] }],
  ["numbers", { n: [0, -0, 1.5, 1e21, 1e-7, Number.MAX_SAFE_INTEGER, Infinity, Number.NaN] }],
  ["undefined values", { u: undefined, a: [undefined, () => 1, 1], f: () => 1, z: 2 }],
  ["a date (toJSON)", { at: new Date(0), list: [new Date(1)] }],
  ["an array body", [1, { a: 2 }]],
  ["a scalar body", "text"],
  ["null", null],
  ["an empty object", {}],
  [
    "defaults added after parsing",
    Object.assign(JSON.parse('{"snapshots":[{"items":[]}]}'), { mode: "partial" }),
  ],
];

describe("jsonPieces", () => {
  it.each(cases)("%s: the pieces join to JSON.stringify's text", (_name, value) => {
    expect([...jsonPieces(value)].join("")).toBe(JSON.stringify(value) ?? "null");
  });

  it("a large body comes back the same through the lane, in many pieces", async () => {
    const body = {
      snapshots: Array.from({ length: 3 }, (_, s) => ({
        location_id: `wh-${s}`,
        items: Array.from({ length: 10_000 }, (_, i) => ({ sku: `SKU-${s}-${i}`, on_hand: i, available: i })),
      })),
      orders: Array.from({ length: 1000 }, (_, i) => ({ external_id: `o-${i}`, note: "x".repeat(300) })),
    };
    expect([...jsonPieces(body)].length).toBeGreaterThan(1000);
    expect(await stringifyOnLane(body)).toBe(JSON.stringify(body));
  });
});
