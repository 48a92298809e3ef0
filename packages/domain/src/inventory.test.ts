import { at } from "@oisr/contract/fixtures";
import { describe, expect, it } from "vitest";
import type { InventorySnapshotInput } from "./input.ts";
import type { Outcome } from "./model.ts";
import { Harness, snapshot } from "./test-support.ts";

// A day apart on the fixtures' timeline; T1 is a default snapshot's as_of.
const T1 = at(0);
const T2 = at(1440);
const T3 = at(2880);
const SKU_A = { sku: "SKU-A", on_hand: 10, available: 8, reserved: 2 };

function levels(h: Harness, location = "WH-1") {
  return h.state
    .inventoryLevelsAt(location)
    .map((l) => [l.sku, l.on_hand, l.available, l.reserved, l.as_of])
    .sort();
}

describe("applyInventory", () => {
  it("creates levels per (location, sku), reserved null when not sent", () => {
    const h = new Harness();
    const res = h.ok("inventory", {
      snapshots: [
        snapshot({
          items: [
            { sku: "SKU-A", on_hand: 10, available: 8, reserved: 2 },
            { sku: "SKU-B", on_hand: 1, available: 1 },
          ],
        }),
      ],
    });
    expect(res.result).toEqual({
      created: 1,
      updated: 0,
      unchanged: 0,
      stale: 0,
      items: [{ index: 0, type: "inventory_snapshot", id: "WH-1", outcome: "created" }],
    });
    expect(res.changes.inventory).toEqual([
      {
        location_id: "WH-1",
        sku: "SKU-A",
        on_hand: 10,
        available: 8,
        reserved: 2,
        as_of: T1,
        updated_at: Harness.at(1),
      },
      {
        location_id: "WH-1",
        sku: "SKU-B",
        on_hand: 1,
        available: 1,
        reserved: null,
        as_of: T1,
        updated_at: Harness.at(1),
      },
    ]);
  });

  it.each<[string, string, number, Outcome, number, string]>([
    ["newer with other quantities", T2, 5, "updated", 5, T2],
    ["newer with the same quantities", T2, 10, "unchanged", 10, T2],
    ["equal as_of", T1, 5, "stale", 10, T1],
    ["older as_of", at(-1440), 5, "stale", 10, T1],
  ])("a level replaced by %s", (_, asOf, onHand, outcome, storedOnHand, storedAsOf) => {
    const h = new Harness();
    h.ok("inventory", { snapshots: [snapshot({ items: [SKU_A] })] });
    const res = h.ok("inventory", {
      snapshots: [
        snapshot({ as_of: asOf, items: [{ sku: "SKU-A", on_hand: onHand, available: 8, reserved: 2 }] }),
      ],
    });
    expect(res.result.items[0]?.outcome).toBe(outcome);
    expect(h.state.inventoryLevel("WH-1", "SKU-A")).toMatchObject({
      on_hand: storedOnHand,
      as_of: storedAsOf,
    });
  });

  it("a confirmation advances as_of, so a snapshot taken in between arrives stale", () => {
    const h = new Harness();
    h.ok("inventory", { snapshots: [snapshot({ items: [SKU_A] })] });
    h.ok("inventory", { snapshots: [snapshot({ as_of: T3, items: [SKU_A] })] });
    expect(h.state.inventoryLevel("WH-1", "SKU-A")?.updated_at).toBe(Harness.at(1));
    const late = h.ok("inventory", {
      snapshots: [snapshot({ as_of: T2, items: [{ sku: "SKU-A", on_hand: 0, available: 0 }] })],
    });
    expect(late.result.items[0]?.outcome).toBe("stale");
    expect(h.state.inventoryLevel("WH-1", "SKU-A")?.on_hand).toBe(10);
  });

  function seeded(): Harness {
    const h = new Harness();
    h.ok("inventory", {
      snapshots: [
        snapshot({
          items: [
            { sku: "A", on_hand: 5, available: 5 },
            { sku: "B", on_hand: 3, available: 2, reserved: 1 },
          ],
        }),
        snapshot({ as_of: T3, items: [{ sku: "C", on_hand: 7, available: 7 }] }),
        snapshot({ location_id: "WH-2", items: [{ sku: "B", on_hand: 9, available: 9 }] }),
      ],
    });
    return h;
  }

  it("partial mode leaves the omitted skus alone", () => {
    const h = seeded();
    h.ok("inventory", {
      snapshots: [snapshot({ as_of: T2, mode: "partial", items: [{ sku: "A", on_hand: 4, available: 4 }] })],
    });
    expect(levels(h)).toEqual([
      ["A", 4, 4, null, T2],
      ["B", 3, 2, 1, T1],
      ["C", 7, 7, null, T3],
    ]);
  });

  // `mode` is always present after validation (the spec's default); the rules default it too.
  it.each<[string, InventorySnapshotInput["mode"] | undefined]>([
    ["absent", undefined],
    ["partial", "partial"],
  ])("mode %s is partial", (_, mode) => {
    const h = seeded();
    h.ok("inventory", {
      snapshots: [
        {
          location_id: "WH-1",
          as_of: T2,
          mode,
          items: [{ sku: "A", on_hand: 4, available: 4 }],
        } as InventorySnapshotInput,
      ],
    });
    expect(h.state.inventoryLevel("WH-1", "B")?.on_hand).toBe(3);
  });

  it("full mode drops omitted skus older than as_of to zero, at that location only", () => {
    const h = seeded();
    const res = h.ok("inventory", {
      snapshots: [snapshot({ as_of: T2, mode: "full", items: [{ sku: "A", on_hand: 5, available: 5 }] })],
    });
    expect(res.result.items[0]?.outcome).toBe("updated");
    expect(levels(h)).toEqual([
      ["A", 5, 5, null, T2],
      ["B", 0, 0, 0, T2],
      ["C", 7, 7, null, T3], // newer than the snapshot: kept
    ]);
    expect(levels(h, "WH-2")).toEqual([["B", 9, 9, null, T1]]);
  });

  it("later snapshots of a batch see earlier ones", () => {
    const h = new Harness();
    const res = h.ok("inventory", {
      snapshots: [
        snapshot({
          items: [
            { sku: "A", on_hand: 1, available: 1 },
            { sku: "B", on_hand: 1, available: 1 },
          ],
        }),
        snapshot({ as_of: T2, mode: "full", items: [{ sku: "A", on_hand: 1, available: 1 }] }),
        snapshot({ items: [{ sku: "B", on_hand: 9, available: 9 }] }),
      ],
    });
    expect(res.result.items.map((i) => i.outcome)).toEqual(["created", "updated", "stale"]);
    expect(res.changes.inventory).toHaveLength(2);
    expect(levels(h)).toEqual([
      ["A", 1, 1, null, T2],
      ["B", 0, 0, 0, T2],
    ]);
  });

  it.each<[string, InventorySnapshotInput["items"], Outcome]>([
    [
      "any new level makes it created",
      [
        { sku: "A", on_hand: 1, available: 1 },
        { sku: "NEW", on_hand: 1, available: 1 },
      ],
      "created",
    ],
    [
      "else any changed level makes it updated",
      [
        { sku: "A", on_hand: 1, available: 1 },
        { sku: "B", on_hand: 3, available: 2, reserved: 1 },
      ],
      "updated",
    ],
    [
      "else unchanged",
      [
        { sku: "A", on_hand: 5, available: 5 },
        { sku: "C", on_hand: 0, available: 0 },
      ],
      "unchanged",
    ],
  ])("snapshot outcome: %s", (_, items, outcome) => {
    const h = seeded();
    expect(h.ok("inventory", { snapshots: [snapshot({ as_of: T2, items })] }).result.items[0]?.outcome).toBe(
      outcome,
    );
  });

  it("snapshot outcome: stale when every level is at least as new", () => {
    const h = seeded();
    const res = h.ok("inventory", {
      snapshots: [snapshot({ as_of: T1, mode: "full", items: [{ sku: "A", on_hand: 0, available: 0 }] })],
    });
    expect(res.result).toMatchObject({ stale: 1, items: [{ outcome: "stale" }] });
    expect(res.changes.inventory).toEqual([]);
  });
});
