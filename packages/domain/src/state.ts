import type { InventoryLevel, Order, Return, Shipment } from "./model.ts";

/**
 * Synchronous lookups over a pre-loaded snapshot of one account's data. The server loads
 * what `referencedKeys` names inside its transaction; the mock keeps everything in memory.
 * Returned objects are treated as immutable: the domain never mutates them.
 */
export interface StateView {
  orderById(id: string): Order | undefined;
  orderByExternalId(externalId: string): Order | undefined;
  shipmentByExternalId(externalId: string): Shipment | undefined;
  returnById(id: string): Return | undefined;
  returnByExternalId(externalId: string): Return | undefined;
  returnsForOrder(orderId: string): Return[];
  inventoryLevel(locationId: string, sku: string): InventoryLevel | undefined;
  inventoryLevelsAt(locationId: string): InventoryLevel[];
}

/** Path identifiers and `order_id` fields accept the server id first, then the external_id. */
export function resolveOrder(state: StateView, ref: string): Order | undefined {
  return state.orderById(ref) ?? state.orderByExternalId(ref);
}

export function resolveReturn(state: StateView, ref: string): Return | undefined {
  return state.returnById(ref) ?? state.returnByExternalId(ref);
}
