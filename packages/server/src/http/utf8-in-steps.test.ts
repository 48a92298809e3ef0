// Decoded in steps, a body's text is buf.toString("utf8")'s, valid or not.
import { describe, expect, it } from "vitest";
import { decodeUtf8OnLane } from "./utf8-in-steps.ts";

describe("decodeUtf8OnLane", () => {
  const samples: [string, Buffer][] = [
    ["ascii", Buffer.from('{"a":"plain text"}')],
    ["two-, three- and four-byte characters", Buffer.from('{"k\u00e9y":"\u20ac \ud83d\ude00 \u4e2d\u6587"}')],
    ["a lone continuation byte", Buffer.from([0x61, 0x80, 0x62, 0x63])],
    ["a truncated sequence", Buffer.from([0x61, 0xe2, 0x82, 0x62, 0xf0, 0x9f, 0x98])],
    ["many continuation bytes", Buffer.from([0xc3, 0x80, 0x80, 0x80, 0x80, 0x80, 0x61])],
    ["an overlong encoding and a surrogate", Buffer.from([0xc0, 0xaf, 0xed, 0xa0, 0x80, 0x61])],
  ];

  it.each(samples)("%s: the one-pass text, whatever the step size", async (_name, bytes) => {
    for (let step = 1; step <= bytes.length + 1; step++) {
      expect(await decodeUtf8OnLane(bytes, step), `steps of ${step}`).toBe(bytes.toString("utf8"));
    }
  });

  it("random bytes, valid or not, decode as in one pass", async () => {
    let seed = 11;
    const next = () => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed >> 8;
    };
    const pool = [0x61, 0x22, 0x80, 0xbf, 0xc3, 0xa9, 0xe2, 0x82, 0xac, 0xf0, 0x9f, 0x98, 0x80, 0xff, 0xed];
    for (let n = 0; n < 500; n++) {
      const bytes = Buffer.from(
        Array.from({ length: 1 + (next() % 24) }, () => pool[next() % pool.length] as number),
      );
      const step = 1 + (next() % 6);
      expect(await decodeUtf8OnLane(bytes, step), bytes.toString("hex")).toBe(bytes.toString("utf8"));
    }
  });
});
