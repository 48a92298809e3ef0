import type { Changes, InventoryLevel, Order, Return, Shipment } from "./model.ts";
import { inventoryKey } from "./overlay.ts";
import type { StateView } from "./state.ts";

/**
 * All of one account's data in memory: the mock server's store and the tests' fixture.
 * `apply` stores copies, so callers may keep using the change objects (e.g. as event
 * payloads) freely; what the lookups return is the stored object and must not be mutated.
 */
export class MemoryState implements StateView {
  readonly #orders = new Map<string, Order>();
  readonly #orderIdByExternal = new Map<string, string>();
  readonly #shipments = new Map<string, Shipment>();
  readonly #returns = new Map<string, Return>();
  readonly #returnIdByExternal = new Map<string, string>();
  readonly #returnIdsByOrder = new Map<string, Set<string>>();
  readonly #inventory = new Map<string, InventoryLevel>();

  constructor(initial: Partial<Changes> = {}) {
    this.apply(initial);
  }

  apply(changes: Partial<Changes>): void {
    for (const order of changes.orders ?? []) {
      this.#orders.set(order.id, structuredClone(order));
      this.#orderIdByExternal.set(order.external_id, order.id);
    }
    for (const shipment of changes.shipments ?? []) {
      this.#shipments.set(shipment.external_id, structuredClone(shipment));
    }
    for (const ret of changes.returns ?? []) {
      const previous = this.#returns.get(ret.id);
      if (previous) this.#returnIdsByOrder.get(previous.order_id)?.delete(ret.id);
      this.#returns.set(ret.id, structuredClone(ret));
      this.#returnIdByExternal.set(ret.external_id, ret.id);
      const ids = this.#returnIdsByOrder.get(ret.order_id) ?? new Set<string>();
      this.#returnIdsByOrder.set(ret.order_id, ids.add(ret.id));
    }
    for (const level of changes.inventory ?? []) {
      this.#inventory.set(inventoryKey(level.location_id, level.sku), structuredClone(level));
    }
  }

  orderById(id: string): Order | undefined {
    return this.#orders.get(id);
  }

  orderByExternalId(externalId: string): Order | undefined {
    const id = this.#orderIdByExternal.get(externalId);
    return id === undefined ? undefined : this.#orders.get(id);
  }

  shipmentByExternalId(externalId: string): Shipment | undefined {
    return this.#shipments.get(externalId);
  }

  returnById(id: string): Return | undefined {
    return this.#returns.get(id);
  }

  returnByExternalId(externalId: string): Return | undefined {
    const id = this.#returnIdByExternal.get(externalId);
    return id === undefined ? undefined : this.#returns.get(id);
  }

  returnsForOrder(orderId: string): Return[] {
    const ids = this.#returnIdsByOrder.get(orderId) ?? new Set<string>();
    return [...ids].flatMap((id) => this.#returns.get(id) ?? []);
  }

  inventoryLevel(locationId: string, sku: string): InventoryLevel | undefined {
    return this.#inventory.get(inventoryKey(locationId, sku));
  }

  inventoryLevelsAt(locationId: string): InventoryLevel[] {
    return this.allInventoryLevels().filter((l) => l.location_id === locationId);
  }

  /** In first-stored order; the mock sorts and pages these for the list endpoints. */
  allOrders(): Order[] {
    return [...this.#orders.values()];
  }

  allShipments(): Shipment[] {
    return [...this.#shipments.values()];
  }

  allReturns(): Return[] {
    return [...this.#returns.values()];
  }

  allInventoryLevels(): InventoryLevel[] {
    return [...this.#inventory.values()];
  }
}
