// Stored resources in their API shape, taken from the spec's types (@oisr/contract/schema): these
// objects are exactly what the GET endpoints return, so field names follow the contract
// (snake_case) and absent optional values are `null`, never `undefined` (JSON drops undefined,
// and readers should see a stable shape).

import type { components } from "@oisr/contract/schema";

export type IngestKind = components["schemas"]["RequestKind"];
/** The prefixes of the ids the domain makes: the resources it applies (every id prefix: @oisr/contract `IdPrefix`). */
export type ResourceIdPrefix = "ord" | "shp" | "ret" | "dsp";

/** Injected so that every domain function is deterministic given its inputs. */
export interface DomainContext {
  /** RFC 3339 timestamp used for created_at / updated_at / received_at / completed_at. */
  now: string;
  /** Returns a fresh server id with the given prefix, e.g. `ord_01JD3X…`. */
  newId: (prefix: ResourceIdPrefix) => string;
}

type Schemas = components["schemas"];

export type Address = Schemas["Address"];
export type Customer = Schemas["Customer"];
/** Decimal strings in the order's currency. */
export type Totals = Schemas["OrderTotals"];
/** `open`, `on_hold`, `cancelled` are set by the caller; the shipped ones are derived. */
export type OrderStatus = Schemas["OrderStatus"];
export type CallerOrderStatus = Schemas["OrderInputStatus"];
export type OrderLine = Schemas["OrderLine"];
export type ShipmentLine = Schemas["OrderShipmentLine"];
/** The summary of a shipment embedded in its order. */
export type OrderShipment = Schemas["OrderShipment"];
export type Order = Schemas["Order"];

/** A stored shipment: the API shows it only inside its order, the store keeps it on its own. */
export interface Shipment extends OrderShipment {
  /** The order's server id. */
  order_id: string;
  updated_at: string;
}

export type ReturnStatus = Schemas["ReturnStatus"];
export type ReturnReasonCode = Schemas["ReasonCode"];
export type ReturnItem = Schemas["ReturnItem"];
export type ReturnTracking = Schemas["ReturnTracking"];
export type DispositionOutcome = Schemas["DispositionOutcome"];
export type ItemCondition = Schemas["ItemCondition"];
export type Disposition = Schemas["Disposition"];
export type Return = Schemas["Return"];
export type InventoryLevel = Schemas["InventoryLevel"];

/** The events the rules raise: the return events of the webhook catalogue. */
export type DomainEventType = Extract<Schemas["WebhookEventType"], `return.${string}`>;

/** The server wraps it as `{id: "evt_…", type, created_at, data: {object: return}}`. */
export interface DomainEvent {
  type: DomainEventType;
  /** The return at the version that caused the event. */
  return: Return;
}

export type ResultItem = Schemas["RequestResultItem"];
export type Outcome = ResultItem["outcome"];
export type ResultItemType = ResultItem["type"];
export type BatchResult = Schemas["RequestResult"];

/** Every business-rule error code, as a value (the spec's enum, checked below). */
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
] as const satisfies readonly Schemas["ItemErrorCode"][];

export type ItemErrorCode = Schemas["ItemErrorCode"];
// The list above names every code of the spec: a code added to the spec and not here fails here.
type MissingCodes = Exclude<ItemErrorCode, (typeof ITEM_ERROR_CODES)[number]>;
const everyCodeListed: [MissingCodes] extends [never] ? true : MissingCodes = true;
void everyCodeListed;

/** A business-rule failure; `pointer` is `""` when the whole request is at fault. */
export type ItemError = Schemas["ItemError"];

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
