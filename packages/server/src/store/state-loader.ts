// Preloads, inside the apply transaction, exactly what a batch reads (domain `referencedKeys`),
// with a few indexed queries, into the domain's in-memory state view.
import {
  type InventoryLevel,
  MemoryState,
  type Order,
  type ReferencedKeys,
  type Return,
  type Shipment,
} from "@oisr/domain";
import { and, eq, inArray, or, sql } from "drizzle-orm";
import type { Tx } from "../db/client.ts";
import { inventoryLevels, orders, returns, shipments } from "../db/schema.ts";

export async function loadState(tx: Tx, accountId: string, keys: ReferencedKeys): Promise<MemoryState> {
  const orderRows = new Map<string, Order>();
  const returnRows = new Map<string, Return>();
  const addOrders = (rows: { body: unknown }[]) => {
    for (const r of rows) orderRows.set((r.body as Order).id, r.body as Order);
  };
  const addReturns = (rows: { body: unknown }[]) => {
    for (const r of rows) returnRows.set((r.body as Return).id, r.body as Return);
  };

  if (keys.orderRefs.length > 0) {
    addOrders(
      await tx
        .select({ body: orders.body })
        .from(orders)
        .where(
          and(
            eq(orders.accountId, accountId),
            or(inArray(orders.id, keys.orderRefs), inArray(orders.externalId, keys.orderRefs)),
          ),
        ),
    );
  }
  if (keys.returnRefs.length > 0) {
    addReturns(
      await tx
        .select({ body: returns.body })
        .from(returns)
        .where(
          and(
            eq(returns.accountId, accountId),
            or(inArray(returns.id, keys.returnRefs), inArray(returns.externalId, keys.returnRefs)),
          ),
        ),
    );
  }
  if (keys.relatedReturns) {
    const missingOrders = [...new Set([...returnRows.values()].map((r) => r.order_id))].filter(
      (id) => !orderRows.has(id),
    );
    if (missingOrders.length > 0) {
      addOrders(
        await tx
          .select({ body: orders.body })
          .from(orders)
          .where(and(eq(orders.accountId, accountId), inArray(orders.id, missingOrders))),
      );
    }
    if (orderRows.size > 0) {
      addReturns(
        await tx
          .select({ body: returns.body })
          .from(returns)
          .where(and(eq(returns.accountId, accountId), inArray(returns.orderId, [...orderRows.keys()]))),
      );
    }
  }

  let shipmentRows: Shipment[] = [];
  if (keys.shipmentExternalIds.length > 0) {
    const rows = await tx
      .select({ body: shipments.body })
      .from(shipments)
      .where(
        and(eq(shipments.accountId, accountId), inArray(shipments.externalId, keys.shipmentExternalIds)),
      );
    shipmentRows = rows.map((r) => r.body as Shipment);
  }

  const levels: InventoryLevel[] = [];
  if (keys.inventoryLocations.length > 0) {
    const rows = await tx
      .select({ body: inventoryLevels.body })
      .from(inventoryLevels)
      .where(
        and(
          eq(inventoryLevels.accountId, accountId),
          inArray(inventoryLevels.locationId, keys.inventoryLocations),
        ),
      );
    levels.push(...rows.map((r) => r.body as InventoryLevel));
  }
  for (let i = 0; i < keys.inventoryKeys.length; i += 5000) {
    const chunk = keys.inventoryKeys.slice(i, i + 5000);
    const rows = await tx
      .select({ body: inventoryLevels.body })
      .from(inventoryLevels)
      .where(
        and(
          eq(inventoryLevels.accountId, accountId),
          sql`(${inventoryLevels.locationId}, ${inventoryLevels.sku}) in (select k.location_id, k.sku from jsonb_to_recordset(${JSON.stringify(chunk)}::jsonb) as k(location_id text, sku text))`,
        ),
      );
    levels.push(...rows.map((r) => r.body as InventoryLevel));
  }

  return new MemoryState({
    orders: [...orderRows.values()],
    returns: [...returnRows.values()],
    shipments: shipmentRows,
    inventory: levels,
  });
}
