// docs/product.md §5, inventory levels: partial and full snapshots, as_of watermarks, GET /inventory.
import { describe, expect, it } from "vitest";
import type { Json } from "../src/client.ts";
import { at, snapshot } from "../src/fixtures.ts";
import { type Client, expectProblem, succeeded, useSystem } from "../src/harness.ts";
import { targets } from "../src/targets.ts";

async function levels(c: Client, q = ""): Promise<Json[]> {
  const res = await c.get(`/inventory${q}`);
  expect(res.status, res.text).toBe(200);
  return res.body.data;
}

const numbers = (rows: Json[]) => rows.map((l) => [l.location_id, l.sku, l.on_hand, l.available, l.reserved]);

describe.each(targets)("inventory — $name", (target) => {
  const h = useSystem(target);

  it("a partial snapshot creates levels; GET /inventory lists them by location, then sku, with every field", async () => {
    const c = await h.account();
    const record = await c.ingestAndWait("/ingest/inventory", {
      snapshots: [
        snapshot("WH-B", at(0), "partial", [
          { sku: "TEE", on_hand: 5, available: 4, reserved: 1 },
          { sku: "MUG", on_hand: 2, available: 2 },
        ]),
        snapshot("WH-A", at(0), "partial", [{ sku: "CAP", on_hand: 0, available: 0 }]),
      ],
    });
    expect(succeeded(record)).toEqual({
      created: 2,
      updated: 0,
      unchanged: 0,
      stale: 0,
      items: [
        { index: 0, type: "inventory_snapshot", id: "WH-B", outcome: "created" },
        { index: 1, type: "inventory_snapshot", id: "WH-A", outcome: "created" },
      ],
    });
    const rows = await levels(c);
    expect(numbers(rows)).toEqual([
      ["WH-A", "CAP", 0, 0, null],
      ["WH-B", "MUG", 2, 2, null],
      ["WH-B", "TEE", 5, 4, 1],
    ]);
    for (const row of rows) {
      expect(Object.keys(row).sort()).toEqual([
        "as_of",
        "available",
        "location_id",
        "on_hand",
        "reserved",
        "sku",
        "updated_at",
      ]);
      expect(Date.parse(row.as_of)).toBe(Date.parse(at(0)));
      expect(row.updated_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    }
  });

  it("a partial snapshot updates only what it lists; an older or equal as_of is stale and changes nothing", async () => {
    const c = await h.account();
    const items = [
      { sku: "TEE", on_hand: 5, available: 5 },
      { sku: "MUG", on_hand: 2, available: 2 },
    ];
    succeeded(
      await c.ingestAndWait("/ingest/inventory", { snapshots: [snapshot("WH", at(10), "partial", items)] }),
    );
    const update = await c.ingestAndWait("/ingest/inventory", {
      snapshots: [snapshot("WH", at(20), "partial", [{ sku: "TEE", on_hand: 3, available: 3 }])],
    });
    expect(succeeded(update).items[0].outcome).toBe("updated");
    const older = await c.ingestAndWait("/ingest/inventory", {
      snapshots: [
        snapshot("WH", at(15), "partial", [{ sku: "TEE", on_hand: 99, available: 99 }]),
        snapshot("WH", at(20), "partial", [{ sku: "TEE", on_hand: 98, available: 98 }]),
      ],
    });
    expect(succeeded(older).items.map((i: Json) => i.outcome)).toEqual(["stale", "stale"]);
    const same = await c.ingestAndWait("/ingest/inventory", {
      snapshots: [snapshot("WH", at(30), "partial", [{ sku: "TEE", on_hand: 3, available: 3 }])],
    });
    expect(succeeded(same).items[0].outcome).toBe("unchanged");
    const rows = await levels(c);
    expect(numbers(rows)).toEqual([
      ["WH", "MUG", 2, 2, null],
      ["WH", "TEE", 3, 3, null],
    ]);
    expect(Date.parse(rows[0].as_of)).toBe(Date.parse(at(10)));
  });

  it("a full snapshot drops the location's unlisted skus to zero as of its as_of, and leaves other locations alone", async () => {
    const c = await h.account();
    succeeded(
      await c.ingestAndWait("/ingest/inventory", {
        snapshots: [
          snapshot("WH", at(0), "partial", [
            { sku: "TEE", on_hand: 5, available: 4, reserved: 1 },
            { sku: "MUG", on_hand: 2, available: 2 },
          ]),
          snapshot("STORE", at(0), "partial", [{ sku: "MUG", on_hand: 7, available: 7 }]),
        ],
      }),
    );
    const full = await c.ingestAndWait("/ingest/inventory", {
      snapshots: [snapshot("WH", at(60), "full", [{ sku: "MUG", on_hand: 1, available: 1 }])],
    });
    expect(succeeded(full).items).toEqual([
      { index: 0, type: "inventory_snapshot", id: "WH", outcome: "updated" },
    ]);
    const rows = await levels(c);
    expect(numbers(rows)).toEqual([
      ["STORE", "MUG", 7, 7, null],
      ["WH", "MUG", 1, 1, null],
      ["WH", "TEE", 0, 0, 0],
    ]);
    const tee = rows.find((r) => r.sku === "TEE");
    expect(Date.parse(tee.as_of)).toBe(Date.parse(at(60)));
    // A later partial for the zeroed sku with an older as_of is stale.
    const older = await c.ingestAndWait("/ingest/inventory", {
      snapshots: [snapshot("WH", at(30), "partial", [{ sku: "TEE", on_hand: 4, available: 4 }])],
    });
    expect(succeeded(older).items[0].outcome).toBe("stale");
    expect(numbers(await levels(c, "?location_id=WH&sku=TEE"))).toEqual([["WH", "TEE", 0, 0, 0]]);
  });

  it("a sku listed twice in one snapshot counts once: the first", async () => {
    const c = await h.account();
    succeeded(
      await c.ingestAndWait("/ingest/inventory", {
        snapshots: [
          snapshot("WH", at(0), "partial", [
            { sku: "TEE", on_hand: 5, available: 5 },
            { sku: "TEE", on_hand: 9, available: 9 },
          ]),
        ],
      }),
    );
    expect(numbers(await levels(c))).toEqual([["WH", "TEE", 5, 5, null]]);
  });

  it("filters by location, by sku and both, and pages with next_cursor and has_more", async () => {
    const c = await h.account();
    const skus = ["A", "B", "C", "D", "E"];
    succeeded(
      await c.ingestAndWait("/ingest/inventory", {
        snapshots: ["WH-1", "WH-2"].map((loc) =>
          snapshot(
            loc,
            at(0),
            "partial",
            skus.map((sku) => ({ sku, on_hand: 1, available: 1 })),
          ),
        ),
      }),
    );
    expect((await levels(c, "?location_id=WH-2")).map((r) => r.sku)).toEqual(skus);
    expect((await levels(c, "?sku=C")).map((r) => r.location_id)).toEqual(["WH-1", "WH-2"]);
    expect(numbers(await levels(c, "?location_id=WH-1&sku=E"))).toEqual([["WH-1", "E", 1, 1, null]]);
    expect(await levels(c, "?location_id=WH-3")).toEqual([]);

    // Paging WH-1 by 2: 2 + 2 + 1, each page with a cursor, the last with has_more false.
    const pages: Json[] = [];
    let cursor: string | undefined;
    for (let i = 0; i < 5; i++) {
      const res = await c.get(
        `/inventory?location_id=WH-1&limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`,
      );
      expect(res.status, res.text).toBe(200);
      expect(typeof res.body.next_cursor).toBe("string");
      pages.push(res.body);
      cursor = res.body.next_cursor;
      if (!res.body.has_more) break;
    }
    expect(pages.map((p) => p.data.map((r: Json) => r.sku))).toEqual([["A", "B"], ["C", "D"], ["E"]]);
    expect(pages.map((p) => p.has_more)).toEqual([true, true, false]);
    // The cursor of the last page gives an empty page, with a cursor again.
    const after = await c.get(
      `/inventory?location_id=WH-1&limit=2&cursor=${encodeURIComponent(cursor as string)}`,
    );
    expect(after.body).toEqual({ data: [], next_cursor: expect.any(String), has_more: false });
    // A cursor is bound to its filters.
    expectProblem(
      await c.get(`/inventory?location_id=WH-2&cursor=${encodeURIComponent(pages[0].next_cursor)}`),
      400,
      "invalid_cursor",
    );
  });
});
