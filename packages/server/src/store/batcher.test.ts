import { describe, expect, it } from "vitest";
import { createBatcher } from "./batcher.ts";

const tick = () => new Promise((r) => setImmediate(r));

describe("group-commit batcher", () => {
  it("sends a lone call at once, alone", async () => {
    const batches: number[][] = [];
    const call = createBatcher(async (items: number[]) => {
      batches.push(items);
      return items.map((i) => i * 2);
    });
    expect(await call(21)).toBe(42);
    expect(batches).toEqual([[21]]);
  });

  it("gathers calls made while a batch is in flight into the next batch", async () => {
    const batches: number[][] = [];
    let release: () => void = () => {};
    const call = createBatcher(async (items: number[]) => {
      batches.push(items);
      if (batches.length === 1) await new Promise<void>((r) => (release = r));
      return items;
    });
    const first = call(1);
    await tick();
    const rest = [call(2), call(3), call(4)];
    await tick();
    expect(batches).toEqual([[1]]);
    release();
    expect(await Promise.all([first, ...rest])).toEqual([1, 2, 3, 4]);
    expect(batches).toEqual([[1], [2, 3, 4]]);
  });

  it("splits by item count and by weight", async () => {
    const batches: string[][] = [];
    const call = createBatcher(
      async (items: string[]) => {
        batches.push(items);
        return items;
      },
      { maxItems: 3, maxWeight: 10, weight: (s) => s.length },
    );
    await Promise.all(["aaaa", "bbbb", "cccc", "d", "e", "f", "g", "hhhhhhhhhhhh"].map((s) => call(s)));
    expect(batches).toEqual([["aaaa", "bbbb"], ["cccc", "d", "e"], ["f", "g"], ["hhhhhhhhhhhh"]]);
  });

  it("rejects every call of a failed batch, and goes on with the next", async () => {
    let n = 0;
    const call = createBatcher(async (items: number[]) => {
      n++;
      if (n === 1) throw new Error("database unavailable");
      return items;
    });
    const a = call(1);
    await expect(a).rejects.toThrow("database unavailable");
    expect(await call(2)).toBe(2);
  });
});
