// Webhook tables (decision 004). Like every table, keys lead with account_id. Event payloads stay
// in the `events` outbox (schema.ts); a delivery points at its event instead of copying it.
import { sql } from "drizzle-orm";
import { bigint, check, index, integer, pgTable, primaryKey, text, timestamp } from "drizzle-orm/pg-core";

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
    /**
     * The receiver asked to wait (429/503 with Retry-After, capped at 1 h): no attempt to this
     * subscription is claimed before then.
     */
    pausedUntil: ts("paused_until"),
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
    /** What sent the event: event (fan-out) | test | retry (POST …/retry) | recover. Retries keep it. */
    trigger: text("trigger").notNull().default("event"),
    /**
     * Which sending of the event to the subscription this attempt belongs to: 0 for the first
     * (fan-out or test), then one more per manual retry or recovery. Each sending has its own
     * attempts 1, 2, … and its own retry schedule.
     */
    round: integer("round").notNull().default(0),
    /** 1 for the first attempt of a sending, 2 for its first retry… */
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
    /** The answer's Content-Type and first bytes as @oisr/contract's responseSnippet keeps them (at most 200 characters, 1,024 bytes). */
    responseContentType: text("response_content_type"),
    responseBody: text("response_body"),
    error: text("error"),
    /** Retry-After the receiver sent with a 429 or 503, in seconds (uncapped, as sent). */
    retryAfterSeconds: integer("retry_after_seconds"),
    durationMs: integer("duration_ms"),
    createdAt: ts("created_at").notNull().defaultNow(),
  },
  (t) => [
    // Partitioned by RANGE (created_at), the time of the id's ULID (decision 020): keys hold it.
    primaryKey({ columns: [t.accountId, t.id, t.createdAt] }),
    check("webhook_deliveries_created_at_check", sql`created_at = oisr_ulid_time(id)`),
    // One row per (subscription, event, sending, attempt) within a partition. Not unique across them
    // (a unique index must hold created_at): what keeps a sending single is its writer's lock (the
    // event claim of fan-out, the attempt's lease, the subscription lock of retry and recover).
    index("webhook_deliveries_attempt_idx").on(t.accountId, t.subscriptionId, t.eventId, t.round, t.attempt),
    // GET …/deliveries (newest first) and the per-subscription in-flight count.
    index("webhook_deliveries_subscription_idx").on(t.accountId, t.subscriptionId, t.id),
    // The claim's per-subscription probes (webhooks/sql/claim.ts, migration 0016): the oldest due
    // attempt of a subscription, and its leases, without reading its backlog or its history.
    index("webhook_deliveries_pending_idx")
      .on(t.accountId, t.subscriptionId, t.nextAttemptAt)
      .where(sql`status = 'pending'`),
    index("webhook_deliveries_leased_idx")
      .on(t.accountId, t.subscriptionId, t.leaseUntil)
      .where(sql`status = 'pending' and lease_owner is not null`),
    // The oldest pending attempt's created_at (migration 0019): the claim reads no partition before it.
    index("webhook_deliveries_pending_created_idx").on(t.createdAt).where(sql`status = 'pending'`),
    // The webhook-lag gauge's oldest pending event (readWebhookLag): one index probe, not a walk over every pending attempt.
    index("webhook_deliveries_pending_event_idx").on(t.eventId, t.accountId).where(sql`status = 'pending'`),
  ],
);

/**
 * POST /webhook_subscriptions/{id}/recover: a background job that queues a new sending (trigger
 * recover) of every event of the window the subscription receives. `after_feed_seq` is how far it
 * got, so a worker that dies mid-way leaves a job another one resumes without sending twice.
 */
export const webhookRecoveries = pgTable(
  "webhook_recoveries",
  {
    accountId: text("account_id").notNull(),
    id: text("id").notNull(),
    subscriptionId: text("subscription_id").notNull(),
    since: ts("since").notNull(),
    until: ts("until").notNull(),
    /** running | completed */
    status: text("status").notNull().default("running"),
    eventsQueued: integer("events_queued").notNull().default(0),
    /** The last events.feed_seq queued (0 before the first). */
    afterFeedSeq: bigint("after_feed_seq", { mode: "number" }).notNull().default(0),
    createdAt: ts("created_at").notNull().defaultNow(),
    completedAt: ts("completed_at"),
  },
  (t) => [
    primaryKey({ columns: [t.accountId, t.id] }),
    index("webhook_recoveries_running_idx").on(t.createdAt).where(sql`status = 'running'`),
  ],
);
