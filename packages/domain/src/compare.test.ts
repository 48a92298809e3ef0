import { describe, expect, it } from "vitest";
import { compareTimestamps, isNewer, sameContent } from "./compare.ts";

describe("compareTimestamps / isNewer", () => {
  it.each([
    ["2025-01-01T00:00:01Z", "2025-01-01T00:00:00Z", true],
    ["2025-01-01T00:00:00Z", "2025-01-01T00:00:00Z", false],
    ["2025-01-01T01:00:00+01:00", "2025-01-01T00:00:00Z", false],
    ["2025-01-01T00:00:00.000001Z", "2025-01-01T00:00:00Z", true],
    ["2025-01-01T00:00:00.0000001Z", "2025-01-01T00:00:00.000001Z", false],
    ["2025-01-01T00:00:00.1Z", "2025-01-01T00:00:00.099999999Z", true],
    ["2024-12-31T23:00:00-02:00", "2025-01-01T00:00:00Z", true],
  ])("isNewer(%s, %s) is %s", (a, b, expected) => {
    expect(isNewer(a, b)).toBe(expected);
  });

  it("equal instants in other notations compare equal", () => {
    expect(compareTimestamps("2025-01-01T00:00:00.500Z", "2025-01-01T01:00:00.5+01:00")).toBe(0);
  });

  it("falls back to text order for values that are not timestamps", () => {
    expect(compareTimestamps("b", "a")).toBeGreaterThan(0);
    expect(compareTimestamps("a", "a")).toBe(0);
  });
});

describe("sameContent", () => {
  it.each<[string, unknown, unknown, boolean]>([
    ["key order is irrelevant", { a: 1, b: { c: [1, 2] } }, { b: { c: [1, 2] }, a: 1 }, true],
    ["array order matters", [1, 2], [2, 1], false],
    ["null differs from a value", { a: null }, { a: "x" }, false],
    ["a missing key differs from null", { a: null }, {}, false],
    ["undefined counts as missing", { a: undefined }, {}, true],
    [
      "timestamps under *_at compare as instants",
      { placed_at: "2025-01-01T00:00:00Z" },
      { placed_at: "2025-01-01T00:00:00.000+00:00" },
      true,
    ],
    [
      "other strings compare as text",
      { sku: "2025-01-01T00:00:00Z" },
      { sku: "2025-01-01T00:00:00.000+00:00" },
      false,
    ],
    ["arrays versus objects", { a: [] }, { a: {} }, false],
  ])("%s", (_, a, b, expected) => {
    expect(sameContent(a, b)).toBe(expected);
    expect(sameContent(b, a)).toBe(expected);
  });
});
