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
import { type AnyColumn, and, eq, type SQL, sql } from "drizzle-orm";
import type { Tx } from "../db/client.ts";
import { preparedRows } from "../db/prepared.ts";
import { inventoryLevels, orders, returns, shipments } from "../db/schema.ts";

/** `column in (…list)` with one JSON parameter: one statement text for every list length. */
function anyOf(column: AnyColumn, values: string[]): SQL {
  return sql`${column} in (select jsonb_array_elements_text(${JSON.stringify(values)}::jsonb))`;
}

/**
 * Rows whose `id` is one of `idRefs` or whose `external_id` is one of `idRefs` or `externalIds`.
 * Two index lookups joined by `union all`: written as one `id in (…) or external_id in (…)`,
 * PostgreSQL cannot use either unique index and filters every row of the account instead (60k
 * orders: 220 ms, growing with the account). A row matched both ways comes twice; callers key
 * rows by id.
 */
async function byIdOrExternalId(
  tx: Tx,
  table: "orders" | "returns",
  accountId: string,
  idRefs: string[],
  externalIds: string[] = [],
): Promise<{ body: unknown }[]> {
  const t = sql.raw(table);
  const ids = JSON.stringify(idRefs);
  const externals = JSON.stringify(
    externalIds.length === 0 ? idRefs : [...new Set([...idRefs, ...externalIds])],
  );
  return await preparedRows<{ body: unknown }>(
    tx,
    sql`
      select body from ${t} where account_id = ${accountId} and id in (select jsonb_array_elements_text(${ids}::jsonb))
      union all
      select body from ${t} where account_id = ${accountId} and external_id in (select jsonb_array_elements_text(${externals}::jsonb))`,
  );
}

export async function loadState(tx: Tx, accountId: string, keys: ReferencedKeys): Promise<MemoryState> {
  const orderRows = new Map<string, Order>();
  const returnRows = new Map<string, Return>();
  const addOrders = (rows: { body: unknown }[]) => {
    for (const r of rows) orderRows.set((r.body as Order).id, r.body as Order);
  };
  const addReturns = (rows: { body: unknown }[]) => {
    for (const r of rows) returnRows.set((r.body as Return).id, r.body as Return);
  };

  if (keys.orderRefs.length > 0 || keys.orderExternalIds.length > 0) {
    addOrders(await byIdOrExternalId(tx, "orders", accountId, keys.orderRefs, keys.orderExternalIds));
  }
  if (keys.returnRefs.length > 0) {
    addReturns(await byIdOrExternalId(tx, "returns", accountId, keys.returnRefs));
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
          .where(and(eq(orders.accountId, accountId), anyOf(orders.id, missingOrders))),
      );
    }
    if (orderRows.size > 0) {
      addReturns(
        await tx
          .select({ body: returns.body })
          .from(returns)
          .where(and(eq(returns.accountId, accountId), anyOf(returns.orderId, [...orderRows.keys()]))),
      );
    }
  }

  let shipmentRows: Shipment[] = [];
  if (keys.shipmentExternalIds.length > 0) {
    const rows = await tx
      .select({ body: shipments.body })
      .from(shipments)
      .where(and(eq(shipments.accountId, accountId), anyOf(shipments.externalId, keys.shipmentExternalIds)));
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
          anyOf(inventoryLevels.locationId, keys.inventoryLocations),
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
