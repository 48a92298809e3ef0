// Webhook tables (decision 004). Like every table, keys lead with account_id. Event payloads stay
// in the `events` outbox (schema.ts); a delivery points at its event instead of copying it.
import { sql } from "drizzle-orm";
import { index, integer, pgTable, primaryKey, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: "string" });

export const webhookSubscriptions = pgTable(
  "webhook_subscriptions",
  {
    accountId: text("account_id").notNull(),
    id: text("id").notNull(),
    url: text("url").notNull(),
    events: text("events").array().notNull(),
    description: text("description"),
    status: text("status").notNull().default("enabled"),
    /** Kept in plain text: it must sign every delivery and be shown again on rotation (decision 004). */
    secret: text("secret").notNull(),
    /** The secret before the last rotation; it keeps signing until previous_secret_expires_at. */
    previousSecret: text("previous_secret"),
    previousSecretExpiresAt: ts("previous_secret_expires_at"),
    /** Failed attempts since the last 2xx, across deliveries; drives automatic disabling. */
    consecutiveFailures: integer("consecutive_failures").notNull().default(0),
    /** First failed attempt of the current failure streak. */
    failingSince: ts("failing_since"),
    /** Why the server disabled it (http_410, failing); null when enabled or disabled by the caller. */
    disabledReason: text("disabled_reason"),
    createdAt: ts("created_at").notNull().defaultNow(),
    updatedAt: ts("updated_at").notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.accountId, t.id] })],
);

/**
 * One row per delivery attempt of one event to one subscription (the API's WebhookDelivery). The
 * `pending` rows are the dispatcher's queue; a failed attempt schedules the next one as a new row.
 */
export const webhookDeliveries = pgTable(
  "webhook_deliveries",
  {
    accountId: text("account_id").notNull(),
    id: text("id").notNull(),
    subscriptionId: text("subscription_id").notNull(),
    eventId: text("event_id").notNull(),
    eventType: text("event_type").notNull(),
    /** 1 for the first attempt, 2 for the first retry… */
    attempt: integer("attempt").notNull(),
    /** pending | succeeded | failed */
    status: text("status").notNull().default("pending"),
    /** Pending: when this attempt is due. Failed: when the next one is, or null when there is none. */
    nextAttemptAt: ts("next_attempt_at"),
    /** Claim lease: a dispatcher that dies mid-attempt loses it, and another one makes the attempt. */
    leaseOwner: text("lease_owner"),
    leaseUntil: ts("lease_until"),
    attemptedAt: ts("attempted_at"),
    responseStatus: integer("response_status"),
    error: text("error"),
    durationMs: integer("duration_ms"),
    createdAt: ts("created_at").notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.accountId, t.id] }),
    // One row per (subscription, event, attempt): fanning out or scheduling twice cannot send twice.
    uniqueIndex("webhook_deliveries_attempt_idx").on(t.accountId, t.subscriptionId, t.eventId, t.attempt),
    // GET …/deliveries (newest first) and the per-subscription in-flight count.
    index("webhook_deliveries_subscription_idx").on(t.accountId, t.subscriptionId, t.id),
    // An event's attempts: what retention (webhooks/retention.ts) checks before deleting an event.
    index("webhook_deliveries_event_idx").on(t.accountId, t.eventId),
    index("webhook_deliveries_due_idx").on(t.nextAttemptAt).where(sql`status = 'pending'`),
    index("webhook_deliveries_created_idx").on(t.createdAt),
  ],
);
