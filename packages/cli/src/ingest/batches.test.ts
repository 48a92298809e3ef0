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

describe("toBatches with targets", () => {
  it("never mixes items sent under different parents (a disposition's return) in one batch", async () => {
    async function* targeted(): AsyncGenerator<SourceEvent> {
      const targets = ["RMA-1", "RMA-1", "RMA-2", "RMA-1", "RMA-1", "RMA-1"];
      for (const [i, target] of targets.entries()) {
        yield { kind: "item", item: { n: i }, line: i + 1, bytes: i + 1, target };
      }
    }
    const batches = [];
    for await (const batch of toBatches(targeted(), 2, () => {})) {
      batches.push([batch.target, batch.items.map((i) => i.line)]);
    }
    expect(batches).toEqual([
      ["RMA-1", [1, 2]],
      ["RMA-2", [3]],
      ["RMA-1", [4, 5]],
      ["RMA-1", [6]],
    ]);
  });
});
