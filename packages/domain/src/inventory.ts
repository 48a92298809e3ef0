import { BatchBuilder } from "./batch.ts";
import { isNewer } from "./compare.ts";
import type { InventoryBody, InventorySnapshotInput } from "./input.ts";
import type { ApplyResult, DomainContext, Outcome } from "./model.ts";
import { Overlay } from "./overlay.ts";
import type { StateView } from "./state.ts";

interface Quantities {
  on_hand: number;
  available: number;
  reserved: number | null;
}

const ZERO: Quantities = { on_hand: 0, available: 0, reserved: 0 };

/**
 * Applies inventory snapshots. Levels only move forward in `as_of`, so snapshots may arrive
 * out of order. Inventory has no business rule that can fail a request.
 */
export function applyInventory(state: StateView, body: InventoryBody, ctx: DomainContext): ApplyResult {
  const overlay = new Overlay(state);
  const batch = new BatchBuilder();
  body.snapshots.forEach((snapshot, index) => {
    const outcome = applySnapshot(overlay, snapshot, ctx);
    batch.record(index, "inventory_snapshot", snapshot.location_id, outcome);
  });
  return batch.finish(overlay);
}

function applySnapshot(overlay: Overlay, snapshot: InventorySnapshotInput, ctx: DomainContext): Outcome {
  const { location_id: locationId, as_of: asOf } = snapshot;
  const outcomes: Outcome[] = [];
  const listed = new Set<string>();
  for (const item of snapshot.items) {
    listed.add(item.sku);
    const quantities = {
      on_hand: item.on_hand,
      available: item.available,
      reserved: item.reserved ?? null,
    };
    outcomes.push(upsertLevel(overlay, locationId, item.sku, quantities, asOf, ctx));
  }
  if (snapshot.mode === "full") {
    for (const level of overlay.inventoryLevelsAt(locationId)) {
      if (listed.has(level.sku)) continue;
      outcomes.push(upsertLevel(overlay, locationId, level.sku, ZERO, asOf, ctx));
    }
  }
  return combine(outcomes);
}

function upsertLevel(
  overlay: Overlay,
  locationId: string,
  sku: string,
  quantities: Quantities,
  asOf: string,
  ctx: DomainContext,
): Outcome {
  const existing = overlay.inventoryLevel(locationId, sku);
  if (!existing) {
    overlay.putInventoryLevel({
      location_id: locationId,
      sku,
      ...quantities,
      as_of: asOf,
      updated_at: ctx.now,
    });
    return "created";
  }
  if (!isNewer(asOf, existing.as_of)) return "stale";
  const same =
    existing.on_hand === quantities.on_hand &&
    existing.available === quantities.available &&
    existing.reserved === quantities.reserved;
  // A confirmation still advances as_of, so that an older snapshot arriving later is stale.
  overlay.putInventoryLevel(
    same ? { ...existing, as_of: asOf } : { ...existing, ...quantities, as_of: asOf, updated_at: ctx.now },
  );
  return same ? "unchanged" : "updated";
}

/** One outcome per snapshot: the strongest thing that happened to any of its levels. */
function combine(outcomes: ReadonlyArray<Outcome>): Outcome {
  for (const outcome of ["created", "updated", "unchanged"] as const) {
    if (outcomes.includes(outcome)) return outcome;
  }
  return "stale";
}
