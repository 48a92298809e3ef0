// Orders, returns and inventory levels as the read routes see them: lookups and change feeds.
// Rows keep the resource in its API shape (`body`) beside the columns used to find and order it.
import { and, asc, eq, gt, gte, or, sql } from "drizzle-orm";
import type { Database, Executor } from "../db/client.ts";
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

export function createResourceStore(database: Database) {
  const { db } = database;

  return {
    /** By server id first, then by the caller's external id. */
    async getOrder(
      accountId: string,
      identifier: string,
      executor: Executor = db,
    ): Promise<unknown | undefined> {
      const rows = await executor
        .select({ id: orders.id, body: orders.body })
        .from(orders)
        .where(
          and(
            eq(orders.accountId, accountId),
            or(eq(orders.id, identifier), eq(orders.externalId, identifier)),
          ),
        );
      return (rows.find((r) => r.id === identifier) ?? rows[0])?.body;
    },

    async getReturn(
      accountId: string,
      identifier: string,
      executor: Executor = db,
    ): Promise<unknown | undefined> {
      const rows = await executor
        .select({ id: returns.id, body: returns.body })
        .from(returns)
        .where(
          and(
            eq(returns.accountId, accountId),
            or(eq(returns.id, identifier), eq(returns.externalId, identifier)),
          ),
        );
      return (rows.find((r) => r.id === identifier) ?? rows[0])?.body;
    },

    /** The orders change feed: every order at the position of its latest change. */
    async orderFeed(
      accountId: string,
      filters: OrderFilters,
      afterSeq: number,
      limit: number,
    ): Promise<FeedRow<unknown>[]> {
      const conditions = [eq(orders.accountId, accountId), gt(orders.feedSeq, afterSeq)];
      if (filters.status) conditions.push(eq(orders.status, filters.status));
      if (filters.source) conditions.push(eq(orders.source, filters.source));
      if (filters.updated_since) conditions.push(gte(orders.updatedAt, filters.updated_since));
      return db
        .select({ seq: orders.feedSeq, body: orders.body })
        .from(orders)
        .where(and(...conditions))
        .orderBy(asc(orders.feedSeq))
        .limit(limit);
    },

    async returnFeed(
      accountId: string,
      filters: ReturnFilters,
      afterSeq: number,
      limit: number,
    ): Promise<FeedRow<unknown>[]> {
      const conditions = [eq(returns.accountId, accountId), gt(returns.feedSeq, afterSeq)];
      if (filters.status) conditions.push(eq(returns.status, filters.status));
      if (filters.order_id) {
        const ref = filters.order_id;
        conditions.push(
          or(eq(returns.orderId, ref), sql`${returns.body}->>'order_external_id' = ${ref}`) as never,
        );
      }
      if (filters.updated_since) conditions.push(gte(returns.updatedAt, filters.updated_since));
      return db
        .select({ seq: returns.feedSeq, body: returns.body })
        .from(returns)
        .where(and(...conditions))
        .orderBy(asc(returns.feedSeq))
        .limit(limit);
    },

    /** Levels ordered by (location_id, sku), keyset after `after`. */
    async listInventory(
      accountId: string,
      filters: { location_id?: string; sku?: string },
      after: [string, string] | null,
      limit: number,
    ): Promise<{ locationId: string; sku: string; body: unknown }[]> {
      const conditions = [eq(inventoryLevels.accountId, accountId)];
      if (filters.location_id) conditions.push(eq(inventoryLevels.locationId, filters.location_id));
      if (filters.sku) conditions.push(eq(inventoryLevels.sku, filters.sku));
      if (after)
        conditions.push(
          sql`(${inventoryLevels.locationId}, ${inventoryLevels.sku}) > (${after[0]}, ${after[1]})`,
        );
      return db
        .select({
          locationId: inventoryLevels.locationId,
          sku: inventoryLevels.sku,
          body: inventoryLevels.body,
        })
        .from(inventoryLevels)
        .where(and(...conditions))
        .orderBy(asc(inventoryLevels.locationId), asc(inventoryLevels.sku))
        .limit(limit);
    },
  };
}

export type ResourceStore = ReturnType<typeof createResourceStore>;
