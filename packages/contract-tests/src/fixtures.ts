// Valid request bodies: the shared fixtures (@oisr/contract/fixtures, the spec's examples with
// lines L1 × 2 and L2 × 1 and one timeline `at(minutes)`), plus what only this suite needs: a
// snapshot built from its parts, a valid body per ingest endpoint, and batches of n items.
import {
  at,
  disposition,
  snapshot as exampleSnapshot,
  type InventoryItemInput,
  type InventorySnapshotInput,
  order,
  returnOf,
  shipment,
  uid,
} from "@oisr/contract/fixtures";

export {
  at,
  type DispositionInput,
  disposition,
  dispositions,
  type InventoryItemInput,
  type InventorySnapshotInput,
  type OrderInput,
  order,
  type ReturnInput,
  returnOf,
  type ShipmentInput,
  shipment,
  uid,
} from "@oisr/contract/fixtures";

/** A snapshot of exactly `items` at `locationId`: inventory tests spell out every level they check. */
export function snapshot(
  locationId: string,
  asOf: string,
  mode: "partial" | "full",
  items: InventoryItemInput[],
): InventorySnapshotInput {
  return exampleSnapshot({ location_id: locationId, as_of: asOf, mode, items });
}

/** A valid body for each ingest endpoint, keyed by request kind (dispositions take the return in the path). */
export const INGEST_ENDPOINTS = [
  { kind: "orders", path: () => "/ingest/orders", body: () => ({ orders: [order()] }), items: "orders" },
  {
    kind: "inventory",
    path: () => "/ingest/inventory",
    body: () => ({ snapshots: [exampleSnapshot()] }),
    items: "snapshots",
  },
  {
    kind: "shipments",
    path: () => "/ingest/shipments",
    body: () => ({ shipments: [shipment(uid("ORD"))] }),
    items: "shipments",
  },
  {
    kind: "returns",
    path: () => "/ingest/returns",
    body: () => ({ returns: [returnOf(uid("ORD"))] }),
    items: "returns",
  },
  {
    kind: "dispositions",
    path: () => `/ingest/returns/${uid("RMA")}/dispositions`,
    body: () => ({ dispositions: [disposition("L1", 1)] }),
    items: "dispositions",
  },
] as const;

/** `n` valid items for an endpoint's batch array (for batch-size limits). */
export function manyItems(kind: (typeof INGEST_ENDPOINTS)[number]["kind"], n: number): unknown[] {
  const make: Record<typeof kind, (i: number) => unknown> = {
    orders: (i) => order({ external_id: `O-${i}` }),
    inventory: (i) => snapshot(`WH-${i}`, at(0), "partial", [{ sku: "S", on_hand: 1, available: 1 }]),
    shipments: (i) => shipment(`O-${i}`, { external_id: `S-${i}` }),
    returns: (i) => returnOf(`O-${i}`, { external_id: `R-${i}` }),
    dispositions: (i) => disposition("L1", 1, { external_id: `D-${i}` }),
  };
  return Array.from({ length: n }, (_, i) => make[kind](i));
}
