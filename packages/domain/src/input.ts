// Ingest payloads as the spec types them (@oisr/contract/schema), after validation: defaults
// the spec declares (order `status`, snapshot `mode`) are filled in by the validator. Server-owned
// fields are not part of these types, and if a caller sends them anyway they are ignored because
// builders pick fields by name.
import type { components } from "@oisr/contract/schema";

type Schemas = components["schemas"];

export type AddressInput = Schemas["AddressInput"];
export type CustomerInput = Schemas["CustomerInput"];
export type OrderLineInput = Schemas["OrderLineInput"];
export type OrderInput = Schemas["OrderInput"];
export type ShipmentInput = Schemas["ShipmentInput"];
export type ReturnItemInput = Schemas["ReturnItemInput"];
export type ReturnInput = Schemas["ReturnInput"];
export type DispositionInput = Schemas["DispositionInput"];
export type InventoryItemInput = Schemas["InventoryItemInput"];
export type InventorySnapshotInput = Schemas["InventorySnapshotInput"];

export type OrdersBody = Schemas["OrdersIngestBody"];
export type InventoryBody = Schemas["InventoryIngestBody"];
export type ShipmentsBody = Schemas["ShipmentsIngestBody"];
export type ReturnsBody = Schemas["ReturnsIngestBody"];
export type DispositionsBody = Schemas["DispositionsIngestBody"];

/** The body of each ingest endpoint, by request kind. */
export interface IngestBodies {
  orders: OrdersBody;
  inventory: InventoryBody;
  shipments: ShipmentsBody;
  returns: ReturnsBody;
  dispositions: DispositionsBody;
}
