// Writes one applied batch: resources with their new change-feed positions, and the outbox events,
// all inside the caller's transaction.
import { eq, sql } from "drizzle-orm";
import type { Tx } from "../db/client.ts";
import { accounts, events, inventoryLevels, orders, returns, shipments } from "../db/schema.ts";
import { newId } from "./ids.ts";

interface FeedResource {
  id: string;
  external_id: string;
  status: string;
  updated_at: string;
}

export interface BatchChanges {
  orders: (FeedResource & { source: string })[];
  returns: (FeedResource & { order_id: string })[];
  shipments: { id: string; external_id: string; order_id: string }[];
  inventory: { location_id: string; sku: string; as_of: string }[];
}

export interface OutboxEvent {
  type: string;
  object: unknown;
}

const excluded = (column: string) => sql.raw(`excluded.${column}`);

/**
 * An entity whose version did not change (only its source watermark moved) keeps its feed
 * position: consumers upsert by version, so re-sending it would be noise.
 */
const feedSeqUnlessSameVersion = (table: string) =>
  sql.raw(
    `case when ${table}.body->'version' = excluded.body->'version' then ${table}.feed_seq else excluded.feed_seq end`,
  );

export async function writeChanges(
  tx: Tx,
  accountId: string,
  changes: BatchChanges,
  outbox: OutboxEvent[],
  now: string,
): Promise<void> {
  const feedCount = changes.orders.length + changes.returns.length;
  let seq = 0;
  if (feedCount > 0) {
    // Taking the account row lock here orders this account's commits, so feed positions are
    // handed out in commit order and a poller can never skip past an uncommitted change.
    const [row] = await tx
      .update(accounts)
      .set({ feedSeq: sql`${accounts.feedSeq} + ${feedCount}` })
      .where(eq(accounts.id, accountId))
      .returning({ feedSeq: accounts.feedSeq });
    if (!row) throw new Error(`account ${accountId} vanished`);
    seq = Number(row.feedSeq) - feedCount;
  }

  if (changes.orders.length > 0) {
    await tx
      .insert(orders)
      .values(
        changes.orders.map((o) => ({
          accountId,
          id: o.id,
          externalId: o.external_id,
          status: o.status,
          source: o.source,
          feedSeq: ++seq,
          updatedAt: o.updated_at,
          body: o,
        })),
      )
      .onConflictDoUpdate({
        target: [orders.accountId, orders.id],
        set: {
          status: excluded("status"),
          source: excluded("source"),
          feedSeq: feedSeqUnlessSameVersion("orders"),
          updatedAt: excluded("updated_at"),
          body: excluded("body"),
        },
      });
  }
  if (changes.returns.length > 0) {
    await tx
      .insert(returns)
      .values(
        changes.returns.map((r) => ({
          accountId,
          id: r.id,
          externalId: r.external_id,
          orderId: r.order_id,
          status: r.status,
          feedSeq: ++seq,
          updatedAt: r.updated_at,
          body: r,
        })),
      )
      .onConflictDoUpdate({
        target: [returns.accountId, returns.id],
        set: {
          status: excluded("status"),
          feedSeq: feedSeqUnlessSameVersion("returns"),
          updatedAt: excluded("updated_at"),
          body: excluded("body"),
        },
      });
  }
  if (changes.shipments.length > 0) {
    await tx
      .insert(shipments)
      .values(
        changes.shipments.map((s) => ({
          accountId,
          id: s.id,
          externalId: s.external_id,
          orderId: s.order_id,
          body: s,
        })),
      )
      .onConflictDoUpdate({ target: [shipments.accountId, shipments.id], set: { body: excluded("body") } });
  }
  if (changes.inventory.length > 0) {
    // Large full snapshots: keep each statement well under the 65k bind-parameter limit.
    for (let i = 0; i < changes.inventory.length; i += 5000) {
      await tx
        .insert(inventoryLevels)
        .values(
          changes.inventory
            .slice(i, i + 5000)
            .map((l) => ({ accountId, locationId: l.location_id, sku: l.sku, asOf: l.as_of, body: l })),
        )
        .onConflictDoUpdate({
          target: [inventoryLevels.accountId, inventoryLevels.locationId, inventoryLevels.sku],
          set: { asOf: excluded("as_of"), body: excluded("body") },
        });
    }
  }
  if (outbox.length > 0) {
    await tx.insert(events).values(
      outbox.map((e) => {
        const id = newId("evt");
        return {
          accountId,
          id,
          type: e.type,
          createdAt: now,
          payload: { id, type: e.type, created_at: now, data: { object: e.object } },
        };
      }),
    );
  }
}
