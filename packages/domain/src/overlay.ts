import type { Changes, InventoryLevel, Order, Return, Shipment } from "./model.ts";
import type { StateView } from "./state.ts";

export function inventoryKey(locationId: string, sku: string): string {
  // NUL cannot occur in JSON-supplied ids without escaping, so keys cannot collide.
  return `${locationId}\u0000${sku}`;
}

/**
 * The working state of one batch: the caller's snapshot plus everything earlier items
 * changed. Later items read through it, so they see earlier ones; discarding it is the
 * all-or-nothing rollback. Maps keep first-insertion order, so `changes()` lists each
 * entity once, in the order it was first touched, in its final state.
 */
export class Overlay implements StateView {
  readonly #base: StateView;
  readonly #orders = new Map<string, Order>();
  readonly #orderIdByExternal = new Map<string, string>();
  readonly #shipments = new Map<string, Shipment>();
  readonly #returns = new Map<string, Return>();
  readonly #returnIdByExternal = new Map<string, string>();
  readonly #inventory = new Map<string, InventoryLevel>();

  constructor(base: StateView) {
    this.#base = base;
  }

  orderById(id: string): Order | undefined {
    return this.#orders.get(id) ?? this.#base.orderById(id);
  }

  orderByExternalId(externalId: string): Order | undefined {
    const id = this.#orderIdByExternal.get(externalId);
    if (id !== undefined) return this.#orders.get(id);
    const stored = this.#base.orderByExternalId(externalId);
    return stored && (this.#orders.get(stored.id) ?? stored);
  }

  shipmentByExternalId(externalId: string): Shipment | undefined {
    return this.#shipments.get(externalId) ?? this.#base.shipmentByExternalId(externalId);
  }

  returnById(id: string): Return | undefined {
    return this.#returns.get(id) ?? this.#base.returnById(id);
  }

  returnByExternalId(externalId: string): Return | undefined {
    const id = this.#returnIdByExternal.get(externalId);
    if (id !== undefined) return this.#returns.get(id);
    const stored = this.#base.returnByExternalId(externalId);
    return stored && (this.#returns.get(stored.id) ?? stored);
  }

  returnsForOrder(orderId: string): Return[] {
    // A return changed in this batch may have moved to or away from the order.
    const stored = this.#base.returnsForOrder(orderId).filter((r) => !this.#returns.has(r.id));
    const changed = [...this.#returns.values()].filter((r) => r.order_id === orderId);
    return [...stored, ...changed];
  }

  inventoryLevel(locationId: string, sku: string): InventoryLevel | undefined {
    return this.#inventory.get(inventoryKey(locationId, sku)) ?? this.#base.inventoryLevel(locationId, sku);
  }

  inventoryLevelsAt(locationId: string): InventoryLevel[] {
    const stored = this.#base
      .inventoryLevelsAt(locationId)
      .filter((l) => !this.#inventory.has(inventoryKey(l.location_id, l.sku)));
    const changed = [...this.#inventory.values()].filter((l) => l.location_id === locationId);
    return [...stored, ...changed];
  }

  putOrder(order: Order): void {
    this.#orders.set(order.id, order);
    this.#orderIdByExternal.set(order.external_id, order.id);
  }

  putShipment(shipment: Shipment): void {
    this.#shipments.set(shipment.external_id, shipment);
  }

  putReturn(ret: Return): void {
    this.#returns.set(ret.id, ret);
    this.#returnIdByExternal.set(ret.external_id, ret.id);
  }

  putInventoryLevel(level: InventoryLevel): void {
    this.#inventory.set(inventoryKey(level.location_id, level.sku), level);
  }

  changes(): Changes {
    return {
      orders: [...this.#orders.values()],
      returns: [...this.#returns.values()],
      shipments: [...this.#shipments.values()],
      inventory: [...this.#inventory.values()],
    };
  }
}
