// Stored resources in their API shape: these objects are exactly what the GET endpoints
// return, so field names follow the contract (snake_case) and absent optional values are
// `null`, never `undefined` (JSON drops undefined, and readers should see a stable shape).

export type IngestKind = "orders" | "inventory" | "shipments" | "returns" | "dispositions";
export type IdPrefix = "ord" | "shp" | "ret" | "dsp";

/** Injected so that every domain function is deterministic given its inputs. */
export interface DomainContext {
  /** RFC 3339 timestamp used for created_at / updated_at / received_at / completed_at. */
  now: string;
  /** Returns a fresh server id with the given prefix, e.g. `ord_01JD3X…`. */
  newId: (prefix: IdPrefix) => string;
}

export interface Address {
  name: string;
  company: string | null;
  line1: string;
  line2: string | null;
  city: string;
  region: string | null;
  postal_code: string | null;
  country: string;
  phone: string | null;
  email: string | null;
}

export interface Customer {
  name: string | null;
  email: string | null;
  phone: string | null;
}

/** Decimal strings in the order's currency. */
export interface Totals {
  subtotal: string;
  discount: string;
  tax: string;
  shipping: string;
  total: string;
}

/** `open`, `on_hold`, `cancelled` are set by the caller; the shipped ones are derived. */
export type OrderStatus = "open" | "on_hold" | "cancelled" | "partially_shipped" | "shipped";
export type CallerOrderStatus = "open" | "on_hold" | "cancelled";

export interface OrderLine {
  line_id: string;
  sku: string;
  name: string | null;
  quantity: number;
  unit_price: string;
  /** Derived: sum of this line over the order's shipments. */
  quantity_shipped: number;
  /** Derived: sum of this line over the order's active (not rejected/cancelled) returns. */
  quantity_returned: number;
}

export interface ShipmentLine {
  line_id: string;
  quantity: number;
}

/** The summary of a shipment embedded in its order. */
export interface OrderShipment {
  id: string;
  external_id: string;
  carrier: string;
  service: string | null;
  tracking_number: string | null;
  tracking_url: string | null;
  shipped_at: string;
  location_id: string | null;
  lines: ShipmentLine[];
  created_at: string;
}

export interface Order {
  id: string;
  external_id: string;
  order_number: string | null;
  source: string;
  status: OrderStatus;
  currency: string;
  placed_at: string;
  customer: Customer | null;
  ship_to: Address;
  bill_to: Address | null;
  shipping_method: string | null;
  lines: OrderLine[];
  totals: Totals | null;
  metadata: Record<string, string> | null;
  source_updated_at: string;
  shipments: OrderShipment[];
  version: number;
  created_at: string;
  updated_at: string;
}

export interface Shipment extends OrderShipment {
  /** The order's server id. */
  order_id: string;
  updated_at: string;
}

export type ReturnStatus =
  | "requested"
  | "approved"
  | "rejected"
  | "cancelled"
  | "in_transit"
  | "received"
  | "completed";

export type ReturnReasonCode =
  | "damaged"
  | "defective"
  | "wrong_item"
  | "not_as_described"
  | "no_longer_needed"
  | "size_or_fit"
  | "other";

export interface ReturnItem {
  line_id: string;
  sku: string;
  quantity: number;
  reason_code: ReturnReasonCode;
  note: string | null;
  /** Derived: sum of this line over the return's dispositions. */
  quantity_dispositioned: number;
}

export interface ReturnTracking {
  carrier: string;
  tracking_number: string;
}

export type DispositionOutcome =
  | "restock"
  | "refurbish"
  | "quarantine"
  | "return_to_vendor"
  | "donate"
  | "recycle"
  | "dispose"
  | "missing";

export type ItemCondition = "new" | "like_new" | "used" | "damaged" | "unsellable";

export interface Disposition {
  id: string;
  external_id: string | null;
  return_id: string;
  line_id: string;
  quantity: number;
  outcome: DispositionOutcome;
  condition: ItemCondition | null;
  location_id: string | null;
  decided_at: string;
  note: string | null;
  created_at: string;
}

export interface Return {
  id: string;
  /** The caller's RMA number. */
  external_id: string;
  order_id: string;
  order_external_id: string;
  status: ReturnStatus;
  reason: string | null;
  customer_note: string | null;
  items: ReturnItem[];
  tracking: ReturnTracking | null;
  requested_at: string;
  received_at: string | null;
  completed_at: string | null;
  dispositions: Disposition[];
  source_updated_at: string;
  version: number;
  created_at: string;
  updated_at: string;
}

export interface InventoryLevel {
  location_id: string;
  sku: string;
  on_hand: number;
  available: number;
  reserved: number | null;
  as_of: string;
  updated_at: string;
}

export type DomainEventType =
  | "return.created"
  | "return.updated"
  | "return.disposition.created"
  | "return.completed"
  | "return.cancelled";

/** The server wraps it as `{id: "evt_…", type, created_at, data: {object: return}}`. */
export interface DomainEvent {
  type: DomainEventType;
  /** The return at the version that caused the event. */
  return: Return;
}

export type Outcome = "created" | "updated" | "unchanged" | "stale";
export type ResultItemType = "order" | "inventory_snapshot" | "shipment" | "return" | "disposition";

export interface ResultItem {
  index: number;
  type: ResultItemType;
  id: string;
  outcome: Outcome;
}

export interface BatchResult {
  created: number;
  updated: number;
  unchanged: number;
  stale: number;
  items: ResultItem[];
}

export const ITEM_ERROR_CODES = [
  "order_not_found",
  "order_cancelled",
  "order_has_shipments",
  "line_not_found",
  "duplicate_line_id",
  "line_below_shipped",
  "line_removal_forbidden",
  "quantity_exceeds_ordered",
  "shipment_conflict",
  "return_not_found",
  "return_closed",
  "return_quantity_exceeded",
  "invalid_status_transition",
  "line_not_in_return",
  "disposition_quantity_exceeded",
  "item_below_dispositioned",
  "currency_mismatch",
] as const;

export type ItemErrorCode = (typeof ITEM_ERROR_CODES)[number];

export interface ItemError {
  /** JSON Pointer into the submitted body; `""` when the whole request is at fault. */
  pointer: string;
  code: ItemErrorCode;
  message: string;
}

/**
 * Every entity whose stored state changed, in its final state, each once, in the order first
 * touched. An order or return whose `version` did not increase only had its
 * `source_updated_at` watermark advanced (outcome `unchanged`): persist it, but it need not
 * move in the change feed. Likewise an inventory level whose `updated_at` did not change only
 * had its `as_of` advanced.
 */
export interface Changes {
  orders: Order[];
  returns: Return[];
  shipments: Shipment[];
  inventory: InventoryLevel[];
}

export type ApplyResult =
  | { status: "succeeded"; result: BatchResult; changes: Changes; events: DomainEvent[] }
  | { status: "failed"; errors: ItemError[] };

export type * from "./input.ts";
