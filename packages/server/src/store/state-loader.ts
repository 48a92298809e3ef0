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
import { type SQL, sql } from "drizzle-orm";
import type { Tx } from "../db/client.ts";
import { preparedRows } from "../db/prepared.ts";

type Keyed = "orders" | "returns" | "shipments" | "inventory_levels";
/** A column the account's rows of a table are looked up by: each is an index's column after account_id. */
type KeyColumn = "id" | "external_id" | "order_id" | "location_id";

/**
 * The bodies of the account's rows of `table` whose `column` is one of `values`: one JSON parameter,
 * so one statement text for every list length, and one probe of the account's index on `column`
 * per value, in every plan.
 *
 * Each value drives a lateral subquery that a limit (`unique`: the key matches one row at most) or
 * `offset 0` keeps from being flattened into a join. Written as a join (`column in (select …)`,
 * or `= any(array(…))`), the plan may instead read every row of the account and hash the list
 * against them, and a prepared statement keeps such a plan once made: its generic plan, made while
 * the table looked small (new, or grown since its last analyse), did that on every call. One
 * account draining 100,000 new orders spent 10–25 ms a stage on this lookup, the account's rows
 * read again each time, where probing took 0.3 ms (decision 017, "Session 19").
 */
export function byKeys(
  table: Keyed,
  column: KeyColumn,
  accountId: string,
  values: string[],
  unique: boolean,
): SQL {
  return sql`select t.body
      from (select distinct k.v from jsonb_array_elements_text(${JSON.stringify(values)}::jsonb) as k(v)) k
      cross join lateral (
        select body from ${sql.raw(table)} where account_id = ${accountId} and ${sql.raw(column)} = k.v
        ${sql.raw(unique ? "limit 1" : "offset 0")}) t`;
}

/**
 * Rows whose `id` is one of `idRefs` or whose `external_id` is one of `idRefs` or `externalIds`.
 * Two lookups (byKeys) joined by `union all`: written as one `id in (…) or external_id in (…)`,
 * PostgreSQL cannot use either unique index and filters every row of the account instead (60k
 * orders: 220 ms, growing with the account). A row matched both ways comes twice; callers key
 * rows by id.
 */
export function byIdOrExternalId(
  table: "orders" | "returns",
  accountId: string,
  idRefs: string[],
  externalIds: string[] = [],
): SQL {
  const externals = externalIds.length === 0 ? idRefs : [...new Set([...idRefs, ...externalIds])];
  return sql`${byKeys(table, "id", accountId, idRefs, true)}
      union all
      ${byKeys(table, "external_id", accountId, externals, true)}`;
}

/** Inventory levels by (location, sku): one primary-key probe per pair, kept apart as byKeys does. */
export function levelsByKey(accountId: string, keys: { location_id: string; sku: string }[]): SQL {
  return sql`select l.body
      from (select distinct k.location_id, k.sku
              from jsonb_to_recordset(${JSON.stringify(keys)}::jsonb) as k(location_id text, sku text)) k
      cross join lateral (
        select body from inventory_levels
         where account_id = ${accountId} and location_id = k.location_id and sku = k.sku
         limit 1) l`;
}

const bodies = (tx: Tx, query: SQL) => preparedRows<{ body: unknown }>(tx, query);

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
    addOrders(await bodies(tx, byIdOrExternalId("orders", accountId, keys.orderRefs, keys.orderExternalIds)));
  }
  if (keys.returnRefs.length > 0) {
    addReturns(await bodies(tx, byIdOrExternalId("returns", accountId, keys.returnRefs)));
  }
  if (keys.relatedReturns) {
    const missingOrders = [...new Set([...returnRows.values()].map((r) => r.order_id))].filter(
      (id) => !orderRows.has(id),
    );
    if (missingOrders.length > 0) {
      addOrders(await bodies(tx, byKeys("orders", "id", accountId, missingOrders, true)));
    }
    if (orderRows.size > 0) {
      addReturns(await bodies(tx, byKeys("returns", "order_id", accountId, [...orderRows.keys()], false)));
    }
  }

  let shipmentRows: Shipment[] = [];
  if (keys.shipmentExternalIds.length > 0) {
    const rows = await bodies(
      tx,
      byKeys("shipments", "external_id", accountId, keys.shipmentExternalIds, true),
    );
    shipmentRows = rows.map((r) => r.body as Shipment);
  }

  const levels: InventoryLevel[] = [];
  if (keys.inventoryLocations.length > 0) {
    const rows = await bodies(
      tx,
      byKeys("inventory_levels", "location_id", accountId, keys.inventoryLocations, false),
    );
    levels.push(...rows.map((r) => r.body as InventoryLevel));
  }
  for (let i = 0; i < keys.inventoryKeys.length; i += 5000) {
    const chunk = keys.inventoryKeys.slice(i, i + 5000);
    const rows = await bodies(tx, levelsByKey(accountId, chunk));
    levels.push(...rows.map((r) => r.body as InventoryLevel));
  }

  return new MemoryState({
    orders: [...orderRows.values()],
    returns: [...returnRows.values()],
    shipments: shipmentRows,
    inventory: levels,
  });
}
