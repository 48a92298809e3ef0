import { describe, expect, it } from "vitest";
import { createCursorCodec } from "./cursor.ts";
import { feedPage, idPage, limitOf, pageOf, stringFilters } from "./pages.ts";

const cursors = createCursorCodec("k").forAccount("acc_A");

describe("list pages", () => {
  it.each([
    [{}, 50],
    [{ limit: 3 }, 3],
    [{ limit: "200" }, 200],
  ])("limit of %j is %d", (query, limit) => {
    expect(limitOf(query)).toBe(limit);
  });

  it("take string filters only", () => {
    expect(stringFilters({ status: "open", kind: ["a"], other: "x" }, ["status", "kind", "sku"])).toEqual({
      status: "open",
      kind: undefined,
      sku: undefined,
    });
  });

  it.each([
    ["more rows than the limit", [1, 2, 3], 2, [1, 2], true, 2],
    ["exactly the limit", [1, 2], 2, [1, 2], false, 2],
    ["no rows: the cursor stays where the call started", [], 2, [], false, 9],
  ])("%s", async (_case, seqs, limit, data, hasMore, position) => {
    const rows = seqs.map((seq) => ({ seq, body: seq * 10 }));
    const page = await feedPage(cursors, rows, limit, 9, { status: "open" });
    expect(page.data).toEqual(data.map((s) => s * 10));
    expect(page.has_more).toBe(hasMore);
    expect(await cursors.decode(page.next_cursor, {})).toEqual({ position, filters: { status: "open" } });
  });

  it.each([
    ["a first page with more", ["whs_c", "whs_b", "whs_a"], null, ["whs_c", "whs_b"], true, "whs_b"],
    ["the last page", ["whs_a"], "whs_b", ["whs_a"], false, "whs_a"],
    ["an empty page keeps the id it was asked from", [], "whs_a", [], false, "whs_a"],
    ["an empty first page", [], null, [], false, ""],
  ])("id pages (newest first): %s", async (_case, ids, before, data, hasMore, position) => {
    const page = await idPage(
      cursors,
      ids.map((id) => ({ id })),
      2,
      before,
      (r) => r.id,
    );
    expect(page).toMatchObject({ data, has_more: hasMore });
    expect((await cursors.decode(page.next_cursor, {})).position).toBe(position);
  });

  it("key pages by whatever position the rows give", async () => {
    const rows = [{ id: "b" }, { id: "a" }];
    const page = await pageOf(cursors, rows, {
      limit: 1,
      from: "",
      filters: {},
      positionOf: (r) => r.id,
      map: (r) => r.id.toUpperCase(),
    });
    expect(page.data).toEqual(["B"]);
    expect((await cursors.decode(page.next_cursor, {})).position).toBe("b");
  });
});
