// The byte scan answers as jsonTextMayHoldUnstorable does on the same text, whatever the slices.
import { jsonTextMayHoldUnstorable } from "@oisr/contract";
import { describe, expect, it } from "vitest";
import { escapesMayHoldUnstorable } from "./unstorable-bytes.ts";

function sliced(bytes: Buffer, size: number): boolean {
  for (let start = 0; start < bytes.length; start += size) {
    if (escapesMayHoldUnstorable(bytes, start, Math.min(start + size, bytes.length))) return true;
  }
  return false;
}

describe("escapesMayHoldUnstorable", () => {
  it.each([
    ['{"a":"plain"}', false],
    ['{"a":"\\u0000"}', true],
    ['{"a":"\\U0000"}', true],
    ['{"a":"\\u000"}', false],
    ['{"a":"\\ud83d\\ude00"}', true],
    ['{"a":"\\uDBFF"}', true],
    ['{"a":"\\ud7ff"}', false],
    ['{"a":"\\\\u0000"}', true],
    ['{"a":"\\u00e9"}', false],
    ["\\u", false],
    ["\\ud", false],
    ["\\ud8", true],
  ])("%s: %s, in slices of any size", (text, expected) => {
    const bytes = Buffer.from(text, "latin1");
    expect(jsonTextMayHoldUnstorable(text)).toBe(expected);
    for (let size = 1; size <= bytes.length; size++)
      expect(sliced(bytes, size), `slices of ${size}`).toBe(expected);
  });

  it("agrees with the text pattern on random escape-heavy texts", () => {
    const alphabet = ["\\", "u", "U", "0", "d", "D", "8", "a", "F", "7", '"', "x"];
    let seed = 7;
    const next = () => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed;
    };
    for (let n = 0; n < 2000; n++) {
      const text = Array.from({ length: 1 + (next() % 12) }, () => alphabet[next() % alphabet.length]).join(
        "",
      );
      const bytes = Buffer.from(text, "latin1");
      expect(sliced(bytes, 1 + (next() % 5)), text).toBe(jsonTextMayHoldUnstorable(text));
    }
  });
});
