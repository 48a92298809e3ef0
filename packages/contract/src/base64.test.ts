import { describe, expect, it } from "vitest";
import { base64, base64url, fromBase64 } from "./base64.ts";

describe("base64", () => {
  // Bytes whose encodings use every character that differs between the two alphabets.
  const bytes = Uint8Array.from([0xfb, 0xff, 0xbf, 0x00, 0x10]);

  it.each([
    ["base64", base64(bytes), "+/+/ABA="],
    ["base64url", base64url(bytes), "-_-_ABA"],
  ])("%s spells the bytes as RFC 4648 says", (_name, encoded, expected) => {
    expect(encoded).toBe(expected);
    expect([...fromBase64(encoded)]).toEqual([...bytes]);
  });

  it.each(["", "AA", "AAA", "AAAA"])("round-trips %j", (text) => {
    expect(base64url(fromBase64(text))).toBe(text);
  });

  it("refuses characters outside the alphabet", () => {
    expect(() => fromBase64("%%%")).toThrow();
  });
});
