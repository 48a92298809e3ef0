// Valid ingest items, typed with the SDK's public input types; tests override what they exercise.
import type {
  DispositionInput,
  InventorySnapshotInput,
  OrderInput,
  ReturnInput,
  ShipmentInput,
} from "../../src/index.ts";
import { at, uid } from "./harness.ts";

/** Two lines: L1 × 2 and L2 × 1. */
export function order(overrides: Partial<OrderInput> = {}): OrderInput {
  return {
    external_id: uid("ORD"),
    source: "shopify",
    currency: "USD",
    placed_at: at(0),
    ship_to: { name: "Ava Thompson", line1: "1820 SE Belmont St", city: "Portland", country: "US" },
    lines: [
      { line_id: "L1", sku: "TEE-BLK-M", quantity: 2, unit_price: "24.00" },
      { line_id: "L2", sku: "MUG-12OZ", quantity: 1, unit_price: "14.50" },
    ],
    source_updated_at: at(1),
    ...overrides,
  };
}

/** Ships every line of `order()` in full. */
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

/** Returns one of each line of `order()`. */
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

/** Dispositions that complete `returnOf()`. */
export function dispositionsFor(): DispositionInput[] {
  return [
    { external_id: uid("DSP"), line_id: "L1", quantity: 1, outcome: "restock", decided_at: at(240) },
    { external_id: uid("DSP"), line_id: "L2", quantity: 1, outcome: "dispose", decided_at: at(241) },
  ];
}

export function snapshot(locationId: string, minutes = 0): InventorySnapshotInput {
  return {
    location_id: locationId,
    as_of: at(minutes),
    mode: "partial",
    items: [
      { sku: "TEE-BLK-M", on_hand: 12, available: 10, reserved: 2 },
      { sku: "MUG-12OZ", on_hand: 5, available: 5 },
    ],
  };
}
