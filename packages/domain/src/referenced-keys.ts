import type { IngestBodies } from "./input.ts";
import type { IngestKind } from "./model.ts";
import { inventoryKey } from "./overlay.ts";

export interface InventoryKey {
  location_id: string;
  sku: string;
}

/**
 * What a batch reads, so the server can preload it with a few indexed queries before
 * calling the apply function. Anything not loaded is taken as not existing.
 */
export interface ReferencedKeys {
  /** Orders to load, each value matched against both `id` and `external_id`. */
  orderRefs: string[];
  /** Orders to load by `external_id` only (an orders batch upserts by it and reads nothing else). */
  orderExternalIds: string[];
  /** Shipments to load by `external_id`. */
  shipmentExternalIds: string[];
  /** Returns to load, each value matched against both `id` and `external_id`. */
  returnRefs: string[];
  /**
   * When true, also load (after the above) the order of every loaded return, then every
   * return of every loaded order: returns re-derive the orders' `quantity_returned`, and a
   * return may move between orders.
   */
  relatedReturns: boolean;
  /** Inventory levels to load by (location_id, sku). */
  inventoryKeys: InventoryKey[];
  /** Locations whose levels must all be loaded (`full` snapshots zero the omitted skus). */
  inventoryLocations: string[];
}

export interface BatchParams {
  /** `{return_id}` of `POST /ingest/returns/{return_id}/dispositions`: id or external_id. */
  returnId?: string;
}

function empty(): ReferencedKeys {
  return {
    orderRefs: [],
    orderExternalIds: [],
    shipmentExternalIds: [],
    returnRefs: [],
    relatedReturns: false,
    inventoryKeys: [],
    inventoryLocations: [],
  };
}

const unique = (values: Iterable<string>): string[] => [...new Set(values)];

export function referencedKeys<K extends IngestKind>(
  kind: K,
  body: IngestBodies[K],
  params: BatchParams = {},
): ReferencedKeys {
  const keys = empty();
  switch (kind) {
    case "orders": {
      keys.orderExternalIds = unique((body as IngestBodies["orders"]).orders.map((o) => o.external_id));
      break;
    }
    case "shipments": {
      const { shipments } = body as IngestBodies["shipments"];
      keys.orderRefs = unique(shipments.map((s) => s.order_id));
      keys.shipmentExternalIds = unique(shipments.map((s) => s.external_id));
      break;
    }
    case "returns": {
      const { returns } = body as IngestBodies["returns"];
      keys.orderRefs = unique(returns.map((r) => r.order_id));
      keys.returnRefs = unique(returns.map((r) => r.external_id));
      keys.relatedReturns = true;
      break;
    }
    case "dispositions": {
      keys.returnRefs = params.returnId === undefined ? [] : [params.returnId];
      break;
    }
    case "inventory": {
      const { snapshots } = body as IngestBodies["inventory"];
      const full = new Set(snapshots.filter((s) => s.mode === "full").map((s) => s.location_id));
      const pairs = new Map<string, InventoryKey>();
      for (const s of snapshots) {
        if (full.has(s.location_id)) continue;
        for (const item of s.items) {
          pairs.set(inventoryKey(s.location_id, item.sku), { location_id: s.location_id, sku: item.sku });
        }
      }
      keys.inventoryKeys = [...pairs.values()];
      keys.inventoryLocations = [...full];
      break;
    }
  }
  return keys;
}

/** What a chain of requests reads: the union of each one's keys. */
export function mergeReferencedKeys(all: ReadonlyArray<ReferencedKeys>): ReferencedKeys {
  if (all.length === 1) return all[0] as ReferencedKeys;
  const inventory = new Map<string, InventoryKey>();
  for (const keys of all) {
    for (const k of keys.inventoryKeys) inventory.set(inventoryKey(k.location_id, k.sku), k);
  }
  return {
    orderRefs: unique(all.flatMap((k) => k.orderRefs)),
    orderExternalIds: unique(all.flatMap((k) => k.orderExternalIds)),
    shipmentExternalIds: unique(all.flatMap((k) => k.shipmentExternalIds)),
    returnRefs: unique(all.flatMap((k) => k.returnRefs)),
    relatedReturns: all.some((k) => k.relatedReturns),
    inventoryKeys: [...inventory.values()],
    inventoryLocations: unique(all.flatMap((k) => k.inventoryLocations)),
  };
}
