// Retrying a delivery on a real database (PGlite, or PostgreSQL when DATABASE_URL is set): rounds,
// the receiver's pause, and events past the retention period.
import { and, asc, eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import type { Database } from "../../db/client.ts";
import { events } from "../../db/schema.ts";
import { webhookDeliveries, webhookSubscriptions } from "../../db/webhook-schema.ts";
import { newId, newIdAt } from "../../store/ids.ts";
import { useFreshDatabase } from "../test-support.ts";
import { createResendStore } from "./resend.ts";
import { createSubscriptionStore } from "./subscriptions.ts";

let database: Database;
useFreshDatabase((opened) => {
  database = opened;
});

const DAY = 86_400_000;
const retentionStart = () => new Date(Date.now() - 30 * DAY).toISOString();

/** A subscription, an event made `ageDays` ago, and its first (round 0) delivery, delivered. */
async function delivered(ageDays = 0) {
  const accountId = newId("acc");
  const sub = await createSubscriptionStore(database).create(accountId, {
    url: "https://hooks.example.com/r",
    events: ["return.created"],
  });
  const at = new Date(Date.now() - ageDays * DAY).toISOString();
  // The server makes partitions around now only; an older day gets its own (decision 020).
  for (const table of ["events", "webhook_deliveries"])
    await database.rows(
      sql`select oisr_ensure_table_partitions(${table}, ${at}::timestamptz, ${at}::timestamptz + interval '1 ms', interval '1 day')`,
    );
  const eventId = newIdAt("evt", at);
  await database.db.insert(events).values({
    accountId,
    id: eventId,
    feedSeq: 1,
    type: "return.created",
    createdAt: at,
    dispatchedAt: at,
    payload: { id: eventId, type: "return.created", created_at: at, data: { object: {} } },
  });
  const deliveryId = newIdAt("whd", at);
  await database.db.insert(webhookDeliveries).values({
    accountId,
    id: deliveryId,
    subscriptionId: sub.id,
    eventId,
    eventType: "return.created",
    attempt: 1,
    status: "succeeded",
    createdAt: at,
  });
  return { accountId, subscriptionId: sub.id, eventId, deliveryId };
}

describe("retrying a delivery", () => {
  it("queues one new round per retry, each numbered once however many retries race", async () => {
    const { accountId, subscriptionId, eventId, deliveryId } = await delivered();
    const store = createResendStore(database);
    const results = await Promise.all(
      Array.from({ length: 4 }, () =>
        store.retryDelivery(accountId, subscriptionId, deliveryId, retentionStart()),
      ),
    );
    expect(results.every((r) => r.outcome === "queued")).toBe(true);
    const rows = await database.db
      .select({ round: webhookDeliveries.round, trigger: webhookDeliveries.trigger })
      .from(webhookDeliveries)
      .where(and(eq(webhookDeliveries.accountId, accountId), eq(webhookDeliveries.eventId, eventId)))
      .orderBy(asc(webhookDeliveries.round));
    expect(rows).toEqual([
      { round: 0, trigger: "event" },
      { round: 1, trigger: "retry" },
      { round: 2, trigger: "retry" },
      { round: 3, trigger: "retry" },
      { round: 4, trigger: "retry" },
    ]);
  });

  it("is due when the receiver's pause ends, not before", async () => {
    const { accountId, subscriptionId, deliveryId } = await delivered();
    const pausedUntil = new Date(Date.now() + 60_000);
    await database.db
      .update(webhookSubscriptions)
      .set({ pausedUntil: pausedUntil.toISOString() })
      .where(and(eq(webhookSubscriptions.accountId, accountId), eq(webhookSubscriptions.id, subscriptionId)));
    const result = await createResendStore(database).retryDelivery(
      accountId,
      subscriptionId,
      deliveryId,
      retentionStart(),
    );
    if (result.outcome !== "queued") throw new Error(result.outcome);
    expect(new Date(result.delivery.nextAttemptAt as string).getTime()).toBe(pausedUntil.getTime());
  });

  it("answers no_event for an event past the retention period, and no_delivery for another subscription's", async () => {
    const old = await delivered(31);
    const store = createResendStore(database);
    expect(
      await store.retryDelivery(old.accountId, old.subscriptionId, old.deliveryId, retentionStart()),
    ).toEqual({ outcome: "no_event", eventId: old.eventId });
    const other = await delivered();
    expect(
      await store.retryDelivery(other.accountId, other.subscriptionId, old.deliveryId, retentionStart()),
    ).toEqual({ outcome: "no_delivery" });
    expect(
      await store.retryDelivery(old.accountId, other.subscriptionId, old.deliveryId, retentionStart()),
    ).toEqual({ outcome: "no_subscription" });
  });
});
