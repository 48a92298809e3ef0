// What the API and /metrics read of the attempts: the deliveries log and the webhook-lag gauge.
import { and, desc, eq, lt, sql } from "drizzle-orm";
import type { Database } from "../../db/client.ts";
import { webhookDeliveries } from "../../db/webhook-schema.ts";
import type { DeliveryRow } from "./subscriptions.ts";

/** The attempt history the API reads (GET …/deliveries): no lease, so no dispatcher identity. */
export function createDeliveryHistory(database: Database) {
  const { db } = database;
  return {
    /** A subscription's attempts, newest first; `before` is the id the previous page ended at. */
    async list(
      accountId: string,
      subscriptionId: string,
      before: string | null,
      limit: number,
    ): Promise<DeliveryRow[]> {
      return db
        .select()
        .from(webhookDeliveries)
        .where(
          and(
            eq(webhookDeliveries.accountId, accountId),
            eq(webhookDeliveries.subscriptionId, subscriptionId),
            before ? lt(webhookDeliveries.id, before) : undefined,
          ),
        )
        .orderBy(desc(webhookDeliveries.id))
        .limit(limit);
    },
  };
}

export type DeliveryHistory = ReturnType<typeof createDeliveryHistory>;

export interface WebhookLag {
  /** Age of the oldest event with a delivery still owed, in seconds (0 when none). */
  oldestUndeliveredAgeSeconds: number;
}

/**
 * The webhook gauge (/metrics): the oldest event not yet fanned out (first entry of
 * events_undispatched_idx) or with a pending attempt. Event ids are ULIDs, so the lowest event id
 * among pending attempts is the oldest event: the first entry of webhook_deliveries_pending_event_idx,
 * read index-only, however many attempts a receiver outage leaves pending (docs/operations/README.md).
 */
export async function readWebhookLag(database: Database): Promise<WebhookLag> {
  const [row] = await database.rows<{ oldest: string | number | null }>(WEBHOOK_LAG);
  return { oldestUndeliveredAgeSeconds: Math.max(0, Number(row?.oldest ?? 0)) };
}

/** readWebhookLag's statement (history.test.ts checks its plan). */
export const WEBHOOK_LAG = sql`select extract(epoch from now() - least(
    (select created_at from events where dispatched_at is null order by seq limit 1),
    (select e.created_at
       from (select account_id, event_id from webhook_deliveries
              where status = 'pending' order by event_id limit 1) d
       join events e on e.account_id = d.account_id and e.id = d.event_id
                    and e.created_at = oisr_ulid_time(d.event_id)))) as oldest`;
