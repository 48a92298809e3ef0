// Orders, returns and inventory levels as the read routes see them: lookups and change feeds.
// Rows keep the resource in its API shape (`body`) beside the columns used to find and order it.
// That jsonb is typed as the spec's schema where it is read: only store/changes.ts writes it,
// from the domain's output, which is typed from the same spec (and responses are checked against
// the spec in tests, OISR_VALIDATE_RESPONSES).
import type { components } from "@oisr/contract/schema";
import { and, asc, eq, gt, gte, or, type SQL, sql } from "drizzle-orm";
import type { Database, Executor } from "../db/client.ts";
import { primaryReads, type ReadSource } from "../db/read-source.ts";
import { inventoryLevels, orders, returns } from "../db/schema.ts";

export interface OrderFilters {
  status?: string;
  source?: string;
  updated_since?: string;
}

export interface ReturnFilters {
  status?: string;
  order_id?: string;
  updated_since?: string;
}

export interface FeedRow<T> {
  seq: number;
  body: T;
}

type Order = components["schemas"]["Order"];
type Return = components["schemas"]["Return"];
type InventoryLevel = components["schemas"]["InventoryLevel"];

/**
 * `reads` serves the feeds and the inventory list, which tolerate lag (a replica, decision 021);
 * the lookups by identifier read the primary: a caller that saw its request succeed, or got a
 * webhook about an order, must find that order.
 */
export function createResourceStore(database: Database, reads: ReadSource = primaryReads(database)) {
  const { db } = database;

  return {
    /** By server id first, then by the caller's external id. */
    async getOrder(
      accountId: string,
      identifier: string,
      executor: Executor = db,
    ): Promise<Order | undefined> {
      const rows = await executor
        .select({ id: orders.id, body: orders.body })
        .from(orders)
        .where(
          and(
            eq(orders.accountId, accountId),
            or(eq(orders.id, identifier), eq(orders.externalId, identifier)),
          ),
        );
      return (rows.find((r) => r.id === identifier) ?? rows[0])?.body as Order | undefined;
    },

    async getReturn(
      accountId: string,
      identifier: string,
      executor: Executor = db,
    ): Promise<Return | undefined> {
      const rows = await executor
        .select({ id: returns.id, body: returns.body })
        .from(returns)
        .where(
          and(
            eq(returns.accountId, accountId),
            or(eq(returns.id, identifier), eq(returns.externalId, identifier)),
          ),
        );
      return (rows.find((r) => r.id === identifier) ?? rows[0])?.body as Return | undefined;
    },

    /** The orders change feed: every order at the position of its latest change. */
    async orderFeed(
      accountId: string,
      filters: OrderFilters,
      afterSeq: number,
      limit: number,
    ): Promise<FeedRow<Order>[]> {
      const conditions = [eq(orders.accountId, accountId), gt(orders.feedSeq, afterSeq)];
      if (filters.status) conditions.push(eq(orders.status, filters.status));
      if (filters.source) conditions.push(eq(orders.source, filters.source));
      if (filters.updated_since) conditions.push(gte(orders.updatedAt, filters.updated_since));
      const rows = await reads.run((db) =>
        db
          .select({ seq: orders.feedSeq, body: orders.body })
          .from(orders)
          .where(and(...conditions))
          .orderBy(asc(orders.feedSeq))
          .limit(limit),
      );
      return rows as FeedRow<Order>[];
    },

    async returnFeed(
      accountId: string,
      filters: ReturnFilters,
      afterSeq: number,
      limit: number,
    ): Promise<FeedRow<Return>[]> {
      // `or` is typed as possibly empty (undefined); `and` skips undefined members.
      const conditions: (SQL | undefined)[] = [
        eq(returns.accountId, accountId),
        gt(returns.feedSeq, afterSeq),
      ];
      if (filters.status) conditions.push(eq(returns.status, filters.status));
      if (filters.order_id) {
        const ref = filters.order_id;
        conditions.push(or(eq(returns.orderId, ref), sql`${returns.body}->>'order_external_id' = ${ref}`));
      }
      if (filters.updated_since) conditions.push(gte(returns.updatedAt, filters.updated_since));
      const rows = await reads.run((db) =>
        db
          .select({ seq: returns.feedSeq, body: returns.body })
          .from(returns)
          .where(and(...conditions))
          .orderBy(asc(returns.feedSeq))
          .limit(limit),
      );
      return rows as FeedRow<Return>[];
    },

    /** Levels ordered by (location_id, sku), keyset after `after`. */
    async listInventory(
      accountId: string,
      filters: { location_id?: string; sku?: string },
      after: [string, string] | null,
      limit: number,
    ): Promise<{ locationId: string; sku: string; body: InventoryLevel }[]> {
      const conditions = [eq(inventoryLevels.accountId, accountId)];
      if (filters.location_id) conditions.push(eq(inventoryLevels.locationId, filters.location_id));
      if (filters.sku) conditions.push(eq(inventoryLevels.sku, filters.sku));
      if (after)
        conditions.push(
          sql`(${inventoryLevels.locationId}, ${inventoryLevels.sku}) > (${after[0]}, ${after[1]})`,
        );
      const rows = await reads.run((db) =>
        db
          .select({
            locationId: inventoryLevels.locationId,
            sku: inventoryLevels.sku,
            body: inventoryLevels.body,
          })
          .from(inventoryLevels)
          .where(and(...conditions))
          .orderBy(asc(inventoryLevels.locationId), asc(inventoryLevels.sku))
          .limit(limit),
      );
      return rows as { locationId: string; sku: string; body: InventoryLevel }[];
    },
  };
}

export type ResourceStore = ReturnType<typeof createResourceStore>;
