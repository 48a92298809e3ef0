// The public data types of the mock, in the API's own terms (the spec's generated types), so
// they match what the SDK and the HTTP answers use.
import type { components } from "@oisr/contract/schema";

type Schemas = components["schemas"];

export type Order = Schemas["Order"];
export type Return = Schemas["Return"];
export type InventoryLevel = Schemas["InventoryLevel"];
export type OrderShipment = Schemas["OrderShipment"];
/** A stored shipment: its summary in the order, with the order's id. */
export type Shipment = OrderShipment & { order_id: string; updated_at: string };
export type OrderInput = Schemas["OrderInput"];
export type ShipmentInput = Schemas["ShipmentInput"];
export type ReturnInput = Schemas["ReturnInput"];
export type DispositionInput = Schemas["DispositionInput"];
export type InventorySnapshotInput = Schemas["InventorySnapshotInput"];
export type RequestRecord = Schemas["RequestRecord"];
export type RequestKind = Schemas["RequestKind"];
export type RequestStatus = Schemas["RequestStatus"];
export type ItemError = Schemas["ItemError"];
export type WebhookSubscription = Schemas["WebhookSubscription"];
export type ApiKey = Schemas["ApiKey"];
export type Permission = Schemas["Permission"];

/**
 * A webhook event as delivered: `{id, type, created_at, api_key_id, data: {object}}`, any type.
 * The contract's `WebhookEventBody`, written out: the public declarations cannot reach the private
 * contract package's index (types.test-d.ts keeps the two equal). `@oisr/sdk`'s `WebhookEvent` is
 * the union of the typed events the spec defines.
 */
export interface WebhookEventBody {
  id: string;
  type: string;
  created_at: string;
  /** The key whose call caused the event (`null` for events no call caused). */
  api_key_id: string | null;
  data: { object: unknown };
}
