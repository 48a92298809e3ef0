// POST …/deliveries/{delivery_id}/retry: a new sending of a delivery's event to its subscription.
// A sending is a round of attempts (webhook_deliveries.round) with the whole retry schedule; the
// event keeps its id, so the receiver gets the same `webhook-id` again and can deduplicate.
import { retryRefused } from "@oisr/contract";
import { and, eq, gte, sql } from "drizzle-orm";
import { EVENTS_CHANNEL } from "../../db/channels.ts";
import type { Database } from "../../db/client.ts";
import { events } from "../../db/schema.ts";
import { webhookDeliveries } from "../../db/webhook-schema.ts";
import { newTimedId } from "../../store/ids.ts";
import { lockSubscription, newRound } from "./rounds.ts";

type DeliveryRow = typeof webhookDeliveries.$inferSelect;

export type RetryOutcome =
  | { outcome: "queued"; delivery: DeliveryRow }
  | { outcome: "no_subscription" }
  | { outcome: "no_delivery" }
  | { outcome: "disabled" }
  /** The delivery's event is past the retention period. */
  | { outcome: "no_event"; eventId: string };

export function createResendStore(database: Database) {
  const { db } = database;
  return {
    /**
     * Queues a new sending (trigger `retry`, attempt 1) of a delivery's event to the delivery's
     * subscription. `eventsSince`: events created before it are past the retention period and
     * count as gone, as GET /events treats them, even while the prune job has not reached them.
     */
    async retryDelivery(
      accountId: string,
      subscriptionId: string,
      deliveryId: string,
      eventsSince: string,
    ): Promise<RetryOutcome> {
      const result = await db.transaction(async (tx): Promise<RetryOutcome> => {
        const subscription = await lockSubscription(tx, accountId, subscriptionId);
        if (!subscription) return { outcome: "no_subscription" };
        const ofSubscription = and(
          eq(webhookDeliveries.accountId, accountId),
          eq(webhookDeliveries.subscriptionId, subscriptionId),
        );
        const [named] = await tx
          .select({ eventId: webhookDeliveries.eventId, eventType: webhookDeliveries.eventType })
          .from(webhookDeliveries)
          .where(
            and(
              ofSubscription,
              eq(webhookDeliveries.id, deliveryId),
              // The one partition the id's time names (decision 020).
              sql`${webhookDeliveries.createdAt} = oisr_ulid_time(${deliveryId})`,
            ),
          );
        if (!named) return { outcome: "no_delivery" };
        if (retryRefused(subscription.status, named.eventType)) return { outcome: "disabled" };
        const [event] = await tx
          .select({ id: events.id })
          .from(events)
          .where(
            and(
              eq(events.accountId, accountId),
              eq(events.id, named.eventId),
              sql`${events.createdAt} = oisr_ulid_time(${named.eventId})`,
              gte(events.createdAt, eventsSince),
            ),
          );
        if (!event) return { outcome: "no_event", eventId: named.eventId };
        const [delivery] = await tx
          .insert(webhookDeliveries)
          .values({
            accountId,
            ...newTimedId("whd"),
            subscriptionId,
            eventId: named.eventId,
            eventType: named.eventType,
            ...newRound(
              "retry",
              { accountId, subscriptionId, eventId: named.eventId },
              subscription.pausedUntil,
            ),
          })
          .returning();
        return { outcome: "queued", delivery: delivery as DeliveryRow };
      });
      // After the commit: a dispatcher woken earlier would not see the row yet.
      if (result.outcome === "queued") await database.notify(EVENTS_CHANNEL, accountId).catch(() => {});
      return result;
    },
  };
}
