import { describe, expect, it } from "vitest";
import { createSpecAjv } from "./body-validator.ts";
import { limitOf } from "./pages.ts";
import {
  guardIntegerQuery,
  integerQueryParameters,
  isDecimalInteger,
  NOT_DECIMAL_PREFIX,
} from "./query-integers.ts";
import { openapiDocument } from "./spec.ts";

// What a JS Number would read as an integer but the contract does not (issue 25).
const NOT_DECIMAL = [
  "0x10",
  "0X10",
  "1e1",
  "1E1",
  "0b11",
  "0o7",
  "5.0",
  "5.",
  "+5",
  "-5",
  " 5",
  "5 ",
  "\t5",
  "1_000",
  "Infinity",
  "٥",
];
const DECIMAL = ["1", "50", "200", "007", "0", "201", "99999999999999999999"];

describe("integer query parameters", () => {
  it("are `limit` only in the spec", () => {
    expect([...integerQueryParameters(openapiDocument)]).toEqual(["limit"]);
  });

  it.each(DECIMAL)("%j is decimal digits", (text) => {
    expect(isDecimalInteger(text)).toBe(true);
  });

  it.each(NOT_DECIMAL)("%j is not", (text) => {
    expect(isDecimalInteger(text)).toBe(false);
  });

  it("guardIntegerQuery replaces non-decimal values of the named parameters only, in place", () => {
    const query: Record<string, unknown> = { limit: "0x10", status: "0x10", cursor: "abc" };
    expect(guardIntegerQuery(query, new Set(["limit"]))).toBe(true);
    expect(query).toEqual({ limit: `${NOT_DECIMAL_PREFIX}0x10`, status: "0x10", cursor: "abc" });
    const fine: Record<string, unknown> = { limit: "007", other: ["1e1"] };
    expect(guardIntegerQuery(fine, new Set(["limit", "other", "absent"]))).toBe(false);
    expect(fine).toEqual({ limit: "007", other: ["1e1"] });
    // An empty value stays empty: both targets refuse it as empty before the schema.
    const empty: Record<string, unknown> = { limit: "" };
    expect(guardIntegerQuery(empty, new Set(["limit"]))).toBe(false);
  });

  describe("with Ajv's coercion, as the validators run it", () => {
    const ajv = createSpecAjv({ coerceTypes: true });
    const validate = ajv.compile({
      type: "object",
      properties: { limit: { type: "integer", minimum: 1, maximum: 200 } },
    });
    const check = (limit: string) => {
      const query: Record<string, unknown> = { limit };
      guardIntegerQuery(query, new Set(["limit"]));
      const valid = validate(query);
      return { valid, query, keywords: (validate.errors ?? []).map((e) => e.keyword) };
    };

    it.each(NOT_DECIMAL)("%j is refused as no integer, once", (limit) => {
      // Unguarded, Ajv would take most of them (0x10 as 16).
      expect(check(limit)).toMatchObject({ valid: false, keywords: ["type"] });
    });

    it.each([
      ["1", 1],
      ["200", 200],
      ["007", 7],
    ])("%j is %d", (limit, value) => {
      const { valid, query } = check(limit);
      expect(valid).toBe(true);
      expect(query.limit).toBe(value);
      expect(limitOf(query)).toBe(value);
    });
  });
});

describe("limitOf", () => {
  it.each(["0x10", "1e1", " 5", "+5", `${NOT_DECIMAL_PREFIX}5`])("never reads %j with Number", (limit) => {
    expect(() => limitOf({ limit })).toThrow(TypeError);
  });

  it("reads decimal digits as decimal", () => {
    expect(limitOf({ limit: "010" })).toBe(10);
  });
});
