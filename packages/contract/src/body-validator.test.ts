import { describe, expect, it } from "vitest";
import { BodyValidator, MAX_COUNTED_ERRORS, MAX_REPORTED_ERRORS } from "./body-validator.ts";
import { depthScanStart, nestsDeeperThan, scanDepth } from "./json-depth.ts";

// A small document in the spec's shape: a batch of items, each with an array of lines.
const document = {
  components: {
    schemas: {
      Body: {
        type: "object",
        additionalProperties: false,
        required: ["items"],
        properties: {
          items: { type: "array", minItems: 1, maxItems: 3, items: { $ref: "#/components/schemas/Item" } },
        },
      },
      Item: {
        type: "object",
        required: ["at", "lines"],
        properties: {
          at: { type: "string", format: "date-time" },
          status: { type: "string", default: "open" },
          lines: { type: "array", maxItems: 2, items: { $ref: "#/components/schemas/Line" } },
        },
      },
      Line: { type: "object", required: ["sku"], properties: { sku: { type: "string" } } },
    },
  },
};
const body = { $ref: "#/components/schemas/Body" };
const validator = new BodyValidator(document);

describe("BodyValidator", () => {
  it("accepts a valid body and fills in defaults", () => {
    const value = { items: [{ at: "2025-01-01T00:00:00Z", lines: [{ sku: "a" }] }] };
    expect(validator.validate(body, value)).toBeNull();
    expect(value.items[0]).toMatchObject({ status: "open" });
  });

  it.each([
    ["an outer array over maxItems", { items: [{}, {}, {}, {}] }, [["/items", "maxItems"]]],
    [
      "an inner array over maxItems, its lines unread",
      { items: [{ at: "2025-01-01T00:00:00Z", lines: [{}, {}, {}] }] },
      [["/items/0/lines", "maxItems"]],
    ],
    [
      "errors in document order, envelope first",
      { items: [{ lines: [{}] }], extra: 1 },
      [
        ["/extra", "additionalProperties"],
        ["/items/0/at", "required"],
        ["/items/0/lines/0/sku", "required"],
      ],
    ],
    ["February 30", { items: [{ at: "2025-02-30T00:00:00Z", lines: [] }] }, [["/items/0/at", "format"]]],
    ["hour 24", { items: [{ at: "2025-01-01T24:00:00Z", lines: [] }] }, [["/items/0/at", "format"]]],
    [
      "U+0000 in a valid body",
      { items: [{ at: "2025-01-01T00:00:00Z", lines: [{ sku: "a\u0000" }] }] },
      [["/items/0/lines/0/sku", "unsupported_character"]],
    ],
  ])("reports %s", (_name, value, expected) => {
    const problems = validator.validate(body, value);
    expect(problems?.errors.map((e) => [e.pointer, e.code])).toEqual(expected);
  });

  it("lists the first errors and stops counting at the cap", () => {
    const big = new BodyValidator({
      components: {
        schemas: {
          Body: {
            type: "object",
            properties: { items: { type: "array", items: { $ref: "#/components/schemas/Line" } } },
          },
          Line: { type: "object", required: ["a", "b"], properties: {} },
        },
      },
    });
    const some = big.validate(body, { items: Array.from({ length: 60 }, () => ({})) });
    expect(some?.errors).toHaveLength(MAX_REPORTED_ERRORS);
    expect(some?.total).toBe(120);
    const many = big.validate(body, { items: Array.from({ length: 100_000 }, () => ({})) });
    expect(many?.total).toBe(MAX_COUNTED_ERRORS);
  });

  it("asks for a body when one is required", () => {
    expect(validator.validate(body, undefined, { required: true })?.errors).toEqual([
      { pointer: "", code: "required", message: "must have a JSON body" },
    ]);
    expect(validator.validate(body, undefined)).toBeNull();
  });
});

describe("nestsDeeperThan", () => {
  const bytes = (text: string) => new TextEncoder().encode(text);
  it.each([
    ['{"a":[[1]]}', 3, false],
    ['{"a":[[[1]]]}', 3, true],
    ['{"a":"[[[[[["}', 2, false],
    ['{"a":"\\"[[[["}', 2, false],
  ])("%s deeper than %i: %s", (text, max, expected) => {
    expect(nestsDeeperThan(bytes(text), max)).toBe(expected);
  });

  it.each([
    ['{"a":[[1]]}', 3],
    ['{"a":[[[1]]]}', 3],
    ['{"a":"\\"[[[["}', 2],
    ['{"a":"\\\\"}[[[[', 2],
    ['[[["\\"]"]]]', 2],
  ])("%s read in slices of any size (max %i): the answer of one pass", (text, max) => {
    const all = bytes(text);
    for (let size = 1; size <= all.length; size++) {
      const scan = depthScanStart();
      let deeper = false;
      for (let end = size; !deeper; end += size) {
        deeper = scanDepth(all, max, scan, Math.min(end, all.length));
        if (end >= all.length) break;
      }
      expect(deeper, `slices of ${size}`).toBe(nestsDeeperThan(all, max));
    }
  });

  it("answers as a scan testing every byte in one loop, on random texts of brackets, quotes and escapes", () => {
    // The scan as it was before its separate loop over strings.
    const reference = (text: Uint8Array, max: number) => {
      let depth = 0;
      let inString = false;
      for (let i = 0; i < text.length; i++) {
        const b = text[i];
        if (inString) {
          if (b === 0x5c) i++;
          else if (b === 0x22) inString = false;
        } else if (b === 0x22) inString = true;
        else if (b === 0x5b || b === 0x7b) {
          if (++depth > max) return true;
        } else if (b === 0x5d || b === 0x7d) depth--;
      }
      return false;
    };
    const alphabet = '[]{}"\\a';
    let seed = 7;
    const next = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed;
    };
    for (let n = 0; n < 2000; n++) {
      let text = "";
      for (let k = next() % 40; k > 0; k--) text += alphabet[next() % alphabet.length];
      const all = bytes(text);
      const max = next() % 4;
      const expected = reference(all, max);
      expect(nestsDeeperThan(all, max), text).toBe(expected);
      const size = 1 + (next() % 5);
      const scan = depthScanStart();
      let deeper = false;
      for (let end = size; !deeper; end += size) {
        deeper = scanDepth(all, max, scan, Math.min(end, all.length));
        if (end >= all.length) break;
      }
      expect(deeper, `${text} in slices of ${size}`).toBe(expected);
    }
  });
});

describe("BodyValidator.validateInSlices", () => {
  it("finds what validate finds, handing the thread back between slices", async () => {
    const value = { items: [{ lines: [{}, {}] }, { at: "x", lines: [] }, {}] };
    let pauses = 0;
    const sliced = await validator.validateInSlices(body, structuredClone(value), {
      sliceMs: 0,
      pause: async () => {
        pauses++;
      },
    });
    expect(sliced).toEqual(validator.validate(body, structuredClone(value)));
    expect(pauses).toBeGreaterThan(0);
  });
});

describe("BodyValidator with mayHoldUnstorable", () => {
  it("skips the U+0000 walk only when told the text holds no escape, and still accepts a valid body", () => {
    const valid = { items: [{ at: "2025-01-01T00:00:00Z", lines: [{ sku: "a" }] }] };
    expect(validator.validate(body, structuredClone(valid), { mayHoldUnstorable: false })).toBeNull();
    const nul = { items: [{ at: "2025-01-01T00:00:00Z", lines: [{ sku: "a\u0000" }] }] };
    expect(validator.validate(body, nul, { mayHoldUnstorable: true })?.errors[0]?.code).toBe(
      "unsupported_character",
    );
  });
});
