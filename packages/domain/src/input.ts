// Ingest payloads as the caller sends them (already validated against the spec).
// Optional fields may be absent or null; server-owned fields are not part of these types,
// and if a caller sends them anyway they are ignored because builders pick fields by name.

import type {
  CallerOrderStatus,
  DispositionOutcome,
  ItemCondition,
  ReturnReasonCode,
  ReturnStatus,
  ReturnTracking,
  ShipmentLine,
  Totals,
} from "./model.ts";

export interface AddressInput {
  name: string;
  company?: string | null;
  line1: string;
  line2?: string | null;
  city: string;
  region?: string | null;
  postal_code?: string | null;
  country: string;
  phone?: string | null;
  email?: string | null;
}

export interface CustomerInput {
  name?: string | null;
  email?: string | null;
  phone?: string | null;
}

export interface OrderLineInput {
  line_id: string;
  sku: string;
  name?: string | null;
  quantity: number;
  unit_price: string;
}

export interface OrderInput {
  external_id: string;
  order_number?: string | null;
  source: string;
  /** Defaults to `open`. Derived values (`shipped`, `partially_shipped`) are ignored. */
  status?: CallerOrderStatus | null;
  currency: string;
  placed_at: string;
  customer?: CustomerInput | null;
  ship_to: AddressInput;
  bill_to?: AddressInput | null;
  shipping_method?: string | null;
  lines: OrderLineInput[];
  totals?: Totals | null;
  metadata?: Record<string, string> | null;
  source_updated_at: string;
}

export interface ShipmentInput {
  external_id: string;
  /** The order's server id or external_id. */
  order_id: string;
  carrier: string;
  service?: string | null;
  tracking_number?: string | null;
  tracking_url?: string | null;
  shipped_at: string;
  location_id?: string | null;
  lines: ShipmentLine[];
}

export interface ReturnItemInput {
  line_id: string;
  /** Taken from the order line when absent. */
  sku?: string | null;
  quantity: number;
  reason_code: ReturnReasonCode;
  note?: string | null;
}

export interface ReturnInput {
  external_id: string;
  /** The order's server id or external_id. */
  order_id: string;
  /** Defaults to `requested` for a new return and to the current status for an update. */
  status?: ReturnStatus | null;
  reason?: string | null;
  customer_note?: string | null;
  items: ReturnItemInput[];
  tracking?: ReturnTracking | null;
  requested_at: string;
  source_updated_at: string;
}

export interface DispositionInput {
  external_id?: string | null;
  line_id: string;
  quantity: number;
  outcome: DispositionOutcome;
  condition?: ItemCondition | null;
  location_id?: string | null;
  decided_at: string;
  note?: string | null;
}

export interface InventoryItemInput {
  sku: string;
  on_hand: number;
  available: number;
  reserved?: number | null;
}

export interface InventorySnapshotInput {
  location_id: string;
  as_of: string;
  /** `full` zeroes the location's skus the snapshot omits; absent means `partial`. */
  mode?: "partial" | "full";
  items: InventoryItemInput[];
}

export interface OrdersBody {
  orders: OrderInput[];
}
export interface InventoryBody {
  snapshots: InventorySnapshotInput[];
}
export interface ShipmentsBody {
  shipments: ShipmentInput[];
}
export interface ReturnsBody {
  returns: ReturnInput[];
}
export interface DispositionsBody {
  dispositions: DispositionInput[];
}

export interface IngestBodies {
  orders: OrdersBody;
  inventory: InventoryBody;
  shipments: ShipmentsBody;
  returns: ReturnsBody;
  dispositions: DispositionsBody;
}
