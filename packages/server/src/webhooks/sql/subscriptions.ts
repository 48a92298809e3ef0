// Webhook subscriptions: CRUD, secret rotation, the test event, and sending events again (retry and
// recovery: resend.ts, recoveries.ts). Every query is scoped by the account, so another
// account's subscription is indistinguishable from a missing one.
import {
  generateWebhookSecret,
  SECRET_ROTATION_OVERLAP_MS,
  subscriptionChange,
  TEST_EVENT_TYPE,
  testEventObject,
  traceOnlyTraceparent,
  uniqueEvents,
  type WebhookSubscriptionUpdate,
  webhookEventBody,
} from "@oisr/contract";
import { and, desc, eq, isNotNull, isNull, lt, sql } from "drizzle-orm";
import { EVENTS_CHANNEL } from "../../db/channels.ts";
import type { Database, Executor } from "../../db/client.ts";
import { webhookDeliveries, webhookSubscriptions } from "../../db/webhook-schema.ts";
import { insertTestEvent } from "../../outbox/index.ts";
import { newId, newIdAt, newTimedId } from "../../store/ids.ts";
import { createRecoveryStore } from "./recoveries.ts";
import { createResendStore } from "./resend.ts";
import { newRound, type SubscriptionRow } from "./rounds.ts";

export type { SubscriptionRow } from "./rounds.ts";

export type DeliveryRow = typeof webhookDeliveries.$inferSelect;

export interface SubscriptionInput {
  url: string;
  events: string[];
  description?: string | null;
}

export type SubscriptionPatch = WebhookSubscriptionUpdate;

/**
 * Drops the attempts not yet made of a subscription that stopped receiving (disabled), so that
 * re-enabling it later does not flood the receiver with stale events, and marks the failed
 * attempts before them as having no next attempt. Attempts in flight finish; their outcome is recorded.
 */
export async function dropPendingDeliveries(
  executor: Executor,
  accountId: string,
  subscriptionId: string,
): Promise<void> {
  const ofSubscription = and(
    eq(webhookDeliveries.accountId, accountId),
    eq(webhookDeliveries.subscriptionId, subscriptionId),
  );
  await executor
    .delete(webhookDeliveries)
    .where(
      and(ofSubscription, eq(webhookDeliveries.status, "pending"), isNull(webhookDeliveries.leaseOwner)),
    );
  await executor
    .update(webhookDeliveries)
    .set({ nextAttemptAt: null })
    .where(
      and(ofSubscription, eq(webhookDeliveries.status, "failed"), isNotNull(webhookDeliveries.nextAttemptAt)),
    );
}

export function createSubscriptionStore(database: Database) {
  const { db } = database;
  const byId = (accountId: string, id: string) =>
    and(eq(webhookSubscriptions.accountId, accountId), eq(webhookSubscriptions.id, id));

  return {
    async create(accountId: string, input: SubscriptionInput): Promise<SubscriptionRow> {
      // App-side timestamps: fan-out compares them with events.created_at, which the worker sets the same way.
      const now = new Date().toISOString();
      const [row] = await db
        .insert(webhookSubscriptions)
        .values({
          accountId,
          id: newId("whs"),
          url: input.url,
          events: uniqueEvents(input.events),
          description: input.description ?? null,
          secret: generateWebhookSecret(),
          createdAt: now,
          updatedAt: now,
        })
        .returning();
      return row as SubscriptionRow;
    },

    /** Newest first; `before` is the id the previous page ended at. */
    async list(accountId: string, before: string | null, limit: number): Promise<SubscriptionRow[]> {
      return db
        .select()
        .from(webhookSubscriptions)
        .where(
          and(
            eq(webhookSubscriptions.accountId, accountId),
            before ? lt(webhookSubscriptions.id, before) : undefined,
          ),
        )
        .orderBy(desc(webhookSubscriptions.id))
        .limit(limit);
    },

    async get(accountId: string, id: string): Promise<SubscriptionRow | undefined> {
      const [row] = await db.select().from(webhookSubscriptions).where(byId(accountId, id));
      return row;
    },

    async update(
      accountId: string,
      id: string,
      patch: SubscriptionPatch,
    ): Promise<SubscriptionRow | undefined> {
      return db.transaction(async (tx) => {
        const [current] = await tx
          .select()
          .from(webhookSubscriptions)
          .where(byId(accountId, id))
          .for("update");
        if (!current) return undefined;
        const change = subscriptionChange(current.status, patch);
        const set: Partial<SubscriptionRow> = { ...change, updatedAt: new Date().toISOString() };
        if (change.status === "enabled") {
          Object.assign(set, { consecutiveFailures: 0, failingSince: null, disabledReason: null });
        } else if (change.status === "disabled") {
          set.disabledReason = null;
          await dropPendingDeliveries(tx, accountId, id);
        }
        const [row] = await tx.update(webhookSubscriptions).set(set).where(byId(accountId, id)).returning();
        return row;
      });
    },

    /** Deletes the subscription and its attempts; one in flight finds its row gone and records nothing. */
    async remove(accountId: string, id: string): Promise<boolean> {
      return db.transaction(async (tx) => {
        const deleted = await tx
          .delete(webhookSubscriptions)
          .where(byId(accountId, id))
          .returning({ id: webhookSubscriptions.id });
        if (deleted.length === 0) return false;
        await tx
          .delete(webhookDeliveries)
          .where(and(eq(webhookDeliveries.accountId, accountId), eq(webhookDeliveries.subscriptionId, id)));
        return true;
      });
    },

    /** A new secret; the replaced one keeps signing for 24 h (a second rotation drops the oldest at once). */
    async rotateSecret(
      accountId: string,
      id: string,
      now = new Date(),
    ): Promise<SubscriptionRow | undefined> {
      const [row] = await db
        .update(webhookSubscriptions)
        .set({
          previousSecret: sql`${webhookSubscriptions.secret}`,
          previousSecretExpiresAt: new Date(now.getTime() + SECRET_ROTATION_OVERLAP_MS).toISOString(),
          secret: generateWebhookSecret(),
          updatedAt: now.toISOString(),
        })
        .where(byId(accountId, id))
        .returning();
      return row;
    },

    /**
     * Queues a `webhook.test` event for this subscription only, whatever its events and status:
     * the event is stored already dispatched (so fan-out skips it) with its first, pending attempt.
     * It keeps the test call's trace id (`traceId`), which its deliveries' traceparent carries, and
     * names the calling key (`apiKeyId`) as the events of ingest calls do.
     */
    async enqueueTest(
      accountId: string,
      subscription: SubscriptionRow,
      traceId: string,
      apiKeyId: string | null,
    ): Promise<DeliveryRow> {
      const now = new Date().toISOString();
      const eventId = newIdAt("evt", now);
      const payload = webhookEventBody(
        eventId,
        TEST_EVENT_TYPE,
        now,
        apiKeyId,
        testEventObject(subscription.id),
      );
      const delivery = await db.transaction(async (tx) => {
        await insertTestEvent(tx, {
          accountId,
          id: eventId,
          type: TEST_EVENT_TYPE,
          payload,
          traceparent: traceOnlyTraceparent(traceId),
        });
        const [row] = await tx
          .insert(webhookDeliveries)
          .values({
            accountId,
            ...newTimedId("whd"),
            subscriptionId: subscription.id,
            eventId,
            eventType: TEST_EVENT_TYPE,
            ...newRound(
              "test",
              { accountId, subscriptionId: subscription.id, eventId },
              subscription.pausedUntil,
            ),
          })
          .returning();
        return row as DeliveryRow;
      });
      await database.notify(EVENTS_CHANNEL, accountId).catch(() => {});
      return delivery;
    },

    ...createResendStore(database),
    ...createRecoveryStore(database),
  };
}

export type SubscriptionStore = ReturnType<typeof createSubscriptionStore>;
