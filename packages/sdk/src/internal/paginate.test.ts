import { describe, expect, it } from "vitest";
import { changeFeed, type FetchPage, iterateItems, type Page } from "./paginate.ts";

/** A feed server: pages keyed by the cursor that fetches them ("" = no cursor). */
function pages(map: Record<string, Page<string>>): FetchPage<string> & { asked: Array<string | undefined> } {
  const asked: Array<string | undefined> = [];
  const f = async (cursor: string | undefined) => {
    asked.push(cursor);
    const page = map[cursor ?? ""];
    if (!page) throw new Error(`unexpected cursor ${cursor}`);
    return page;
  };
  return Object.assign(f, { asked });
}

describe("iterateItems", () => {
  it("yields every item of every page, following next_cursor while has_more", async () => {
    const fetch = pages({
      "": { data: ["a", "b"], next_cursor: "c1", has_more: true },
      c1: { data: ["c"], next_cursor: "c2", has_more: true },
      c2: { data: [], next_cursor: "c3", has_more: false },
    });
    const out: string[] = [];
    for await (const x of iterateItems(fetch)) out.push(x);
    expect(out).toEqual(["a", "b", "c"]);
    expect(fetch.asked).toEqual([undefined, "c1", "c2"]);
  });

  it("stops when the server repeats a cursor instead of looping for ever", async () => {
    const fetch = pages({
      "": { data: ["a"], next_cursor: "c1", has_more: true },
      c1: { data: ["b"], next_cursor: "c1", has_more: true },
    });
    const out: string[] = [];
    for await (const x of iterateItems(fetch)) out.push(x);
    expect(out).toEqual(["a", "b"]);
  });
});

describe("changeFeed", () => {
  const feed = () =>
    pages({
      "": { data: ["o1", "o2"], next_cursor: "c1", has_more: true },
      c1: { data: ["o3"], next_cursor: "c2", has_more: false },
      c2: { data: [], next_cursor: "c2", has_more: false },
    });

  it("yields a cursor that is safe to persist after each item: the page's start, and next_cursor on its last item", async () => {
    const controller = new AbortController();
    const out: Array<[string, string | null]> = [];
    for await (const { item, cursor } of changeFeed(feed(), { signal: controller.signal }, async () => {})) {
      out.push([item, cursor]);
      if (item === "o3") controller.abort();
    }
    expect(out).toEqual([
      ["o1", null],
      ["o2", "c1"],
      ["o3", "c2"],
    ]);
  });

  it("resuming from any yielded cursor misses nothing", async () => {
    const seen: string[] = [];
    const resumed: string[] = [];
    const controller = new AbortController();
    for await (const { item, cursor } of changeFeed(feed(), { signal: controller.signal }, async () => {})) {
      seen.push(item);
      if (item === "o1") {
        // crash after o1: resume from its cursor
        const again = new AbortController();
        for await (const c of changeFeed(feed(), { cursor, signal: again.signal }, async () => {})) {
          resumed.push(c.item);
          if (c.item === "o3") again.abort();
        }
        controller.abort();
      }
    }
    expect(resumed).toEqual(["o1", "o2", "o3"]);
  });

  it("sleeps intervalMs at the end of the feed, then polls again with the last next_cursor", async () => {
    const fetch = pages({
      "": { data: ["o1"], next_cursor: "c1", has_more: false },
      c1: { data: ["o2"], next_cursor: "c2", has_more: false },
      c2: { data: [], next_cursor: "c2", has_more: false },
    });
    const sleeps: number[] = [];
    const controller = new AbortController();
    const items: string[] = [];
    for await (const { item } of changeFeed(
      fetch,
      { intervalMs: 1_234, signal: controller.signal },
      async (ms) => {
        sleeps.push(ms);
        if (sleeps.length === 3) controller.abort();
      },
    )) {
      items.push(item);
    }
    expect(items).toEqual(["o1", "o2"]);
    expect(fetch.asked).toEqual([undefined, "c1", "c2"]);
    expect(sleeps).toEqual([1_234, 1_234, 1_234]);
  });

  it("ends quietly when aborted while asleep", async () => {
    const controller = new AbortController();
    const fetch = pages({
      "": { data: [], next_cursor: "c0", has_more: false },
      c0: { data: [], next_cursor: "c0", has_more: false },
    });
    const it = changeFeed(fetch, { signal: controller.signal, intervalMs: 60_000 });
    const next = it.next();
    await new Promise((r) => setTimeout(r, 10));
    controller.abort();
    await expect(next).resolves.toEqual({ done: true, value: undefined });
  });

  it("propagates an error that is not an abort", async () => {
    const it = changeFeed(async () => {
      throw new Error("boom");
    });
    await expect(it.next()).rejects.toThrow("boom");
  });
});
