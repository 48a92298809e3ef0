// Inventory CSV: one row per (location, sku): location_id, as_of, mode (partial | full; default
// partial), sku, on_hand, available, reserved. Adjacent rows with the same location_id, as_of and
// mode form one snapshot, split every 10,000 rows (the API's limit per snapshot); a `full`
// snapshot cannot be split, so a larger one is reported instead of being sent.
import { type Group, integer, readCsvGroups } from "./csv-groups.ts";
import { invalid, type SourceEvent } from "./types.ts";

export const MAX_SNAPSHOT_ITEMS = 10_000;

function buildSnapshot(group: Group): SourceEvent {
  const first = group.records[0];
  const { location_id, as_of, mode = "partial" } = first?.values ?? {};
  if (mode === "full" && group.split) {
    return invalid(
      first?.line ?? 0,
      "snapshot_too_large",
      `a full snapshot holds at most ${MAX_SNAPSHOT_ITEMS} rows and cannot be split`,
      group.bytes,
      "/items",
    );
  }
  const items = group.records.map(({ values }) => {
    const item: Record<string, unknown> = {};
    if (values.sku !== undefined) item.sku = values.sku;
    for (const field of ["on_hand", "available", "reserved"] as const) {
      const value = values[field];
      if (value !== undefined) item[field] = integer(value);
    }
    return item;
  });
  return {
    kind: "item",
    item: { location_id, as_of, mode, items },
    line: first?.line ?? 0,
    subLines: { key: "items", lines: group.records.map((r) => r.line) },
    bytes: group.bytes,
  };
}

export function readInventoryCsv(path: string): AsyncGenerator<SourceEvent> {
  return readCsvGroups(
    path,
    (r) =>
      r.values.location_id === undefined
        ? undefined
        : JSON.stringify([r.values.location_id, r.values.as_of, r.values.mode ?? "partial"]),
    buildSnapshot,
    MAX_SNAPSHOT_ITEMS,
  );
}
