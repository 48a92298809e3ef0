// Valid request bodies, built to the spec's input schemas; tests override what they exercise.
import { randomBytes } from "node:crypto";
import type { components } from "@oisr/contract/schema";

type Schemas = components["schemas"];
export type OrderInput = Schemas["OrderInput"];
export type ShipmentInput = Schemas["ShipmentInput"];
export type ReturnInput = Schemas["ReturnInput"];
export type DispositionInput = Schemas["DispositionInput"];
export type InventorySnapshotInput = Schemas["InventorySnapshotInput"];
export type InventoryItemInput = Schemas["InventoryItemInput"];

/** A short identifier unique across the run (accounts are fresh, but readable uniqueness helps debugging). */
export function uid(prefix: string): string {
  return `${prefix}-${randomBytes(5).toString("hex")}`;
}

const BASE = Date.parse("2025-03-14T09:00:00Z");
/** A caller-side timestamp, `minutes` after a fixed base: later minutes are "newer" for source_updated_at/as_of. */
export function at(minutes: number): string {
  return new Date(BASE + minutes * 60_000).toISOString();
}

/** An order with two lines: L1 × 2 and L2 × 1. */
export function order(overrides: Partial<OrderInput> = {}): OrderInput {
  return {
    external_id: uid("ORD"),
    order_number: "#1042",
    source: "shopify",
    currency: "USD",
    placed_at: at(0),
    customer: { name: "Ava Thompson", email: "ava@example.com" },
    ship_to: {
      name: "Ava Thompson",
      line1: "1820 SE Belmont St",
      city: "Portland",
      region: "OR",
      postal_code: "97214",
      country: "US",
    },
    lines: [
      { line_id: "L1", sku: "TEE-BLK-M", name: "Tee", quantity: 2, unit_price: "24.00" },
      { line_id: "L2", sku: "MUG-12OZ", quantity: 1, unit_price: "14.50" },
    ],
    source_updated_at: at(1),
    ...overrides,
  };
}

export function shipment(orderRef: string, overrides: Partial<ShipmentInput> = {}): ShipmentInput {
  return {
    external_id: uid("SHP"),
    order_id: orderRef,
    carrier: "UPS",
    tracking_number: "1Z999AA10123456784",
    shipped_at: at(60),
    lines: [
      { line_id: "L1", quantity: 2 },
      { line_id: "L2", quantity: 1 },
    ],
    ...overrides,
  };
}

export function returnOf(orderRef: string, overrides: Partial<ReturnInput> = {}): ReturnInput {
  return {
    external_id: uid("RMA"),
    order_id: orderRef,
    status: "approved",
    items: [
      { line_id: "L1", quantity: 1, reason_code: "size_or_fit" },
      { line_id: "L2", quantity: 1, reason_code: "damaged" },
    ],
    requested_at: at(120),
    source_updated_at: at(121),
    ...overrides,
  };
}

export function disposition(
  lineId: string,
  quantity: number,
  overrides: Partial<DispositionInput> = {},
): DispositionInput {
  return {
    external_id: uid("DSP"),
    line_id: lineId,
    quantity,
    outcome: "restock",
    condition: "like_new",
    decided_at: at(240),
    ...overrides,
  };
}

export function snapshot(
  locationId: string,
  asOf: string,
  mode: "partial" | "full",
  items: InventoryItemInput[],
): InventorySnapshotInput {
  return { location_id: locationId, as_of: asOf, mode, items };
}

/** A valid body for each ingest endpoint, keyed by request kind (dispositions take the return in the path). */
export const INGEST_ENDPOINTS = [
  { kind: "orders", path: () => "/ingest/orders", body: () => ({ orders: [order()] }), items: "orders" },
  {
    kind: "inventory",
    path: () => "/ingest/inventory",
    body: () => ({
      snapshots: [snapshot(uid("WH"), at(0), "partial", [{ sku: "SKU-1", on_hand: 1, available: 1 }])],
    }),
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
