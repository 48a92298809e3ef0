import { describe, expect, it } from "vitest";
import type { SourceEvent } from "../sources/types.ts";
import { toBatches } from "./batches.ts";

async function* events(sizes: number[]): AsyncGenerator<SourceEvent> {
  for (const [i, size] of sizes.entries()) {
    yield { kind: "item", item: { pad: "x".repeat(size) }, line: i + 1, bytes: i + 1 };
  }
}

async function cut(sizes: number[], batchSize: number, maxBytes: number) {
  const invalid: number[] = [];
  const out: number[][] = [];
  for await (const batch of toBatches(events(sizes), batchSize, (e) => invalid.push(e.line), maxBytes)) {
    out.push(batch.items.map((i) => i.line));
  }
  return { out, invalid };
}

describe("toBatches", () => {
  it("cuts by count", async () => {
    expect((await cut([1, 1, 1, 1, 1], 2, 1000)).out).toEqual([[1, 2], [3, 4], [5]]);
  });

  it("cuts before a batch would exceed the byte limit, and rejects an item larger than it", async () => {
    // Each item serializes to {"pad":"…"} = size + 10 bytes, plus one for the separator.
    expect(await cut([40, 40, 200, 40], 10, 100)).toEqual({ out: [[1], [2], [4]], invalid: [3] });
  });
});
