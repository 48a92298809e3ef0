// Drizzle schema. Every key is led by account_id so the data can be distributed by account
// (see docs/scaling.md). Resources are stored in their API shape (`body`) next to the few columns
// that are filtered, joined or ordered on.

import { RETRYABLE_STATUSES } from "@oisr/contract";
import { sql } from "drizzle-orm";
import {
  bigint,
  bigserial,
  check,
  index,
  integer,
  json,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import { OPEN_STATUSES, REQUEST_KINDS, REQUEST_STATUSES } from "../queue/statuses.ts";

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: "string" });

export const accounts = pgTable("accounts", {
  id: text("id").primaryKey(),
  name: text("name").notNull(),
  /** Last change-feed position handed out; the row lock taken to bump it orders an account's commits. */
  feedSeq: bigint("feed_seq", { mode: "number" }).notNull().default(0),
  /** Per-account rate-limit overrides: scope name -> calls per 60 s. */
  rateLimits: jsonb("rate_limits").$type<Record<string, number>>(),
  createdAt: ts("created_at").notNull().defaultNow(),
});

/**
 * API keys (decision 013): what a secret may do and until when. A key's secrets are its rows in
 * api_tokens; every statement on both tables lives in store/api-keys.ts.
 */
export const apiKeys = pgTable(
  "api_keys",
  {
    /** `key_<ULID>`: the public id shown instead of the secret. */
    id: text("id").primaryKey(),
    accountId: text("account_id").notNull(),
    name: text("name").notNull(),
    /** @oisr/contract's Permission names, in the order asked. */
    permissions: text("permissions").array().notNull(),
    /** The current secret's first characters; null for a secret made before keys existed. */
    prefix: text("prefix"),
    createdAt: ts("created_at").notNull().defaultNow(),
    /** The key whose call created this one; null when an operator did (oisr-server). */
    createdBy: text("created_by"),
    expiresAt: ts("expires_at"),
    /** Written at most once a minute per key and process (store/last-used.ts). */
    lastUsedAt: ts("last_used_at"),
    rotatedAt: ts("rotated_at"),
    revokedAt: ts("revoked_at"),
  },
  (t) => [index("api_keys_account_idx").on(t.accountId, t.id)],
);

/** A key's secrets: the current one, and those replaced by rotation until their end. */
export const apiTokens = pgTable(
  "api_tokens",
  {
    /** SHA-256 of the token, hex. The token itself is never stored. */
    tokenHash: text("token_hash").primaryKey(),
    accountId: text("account_id").notNull(),
    keyId: text("key_id").notNull(),
    createdAt: ts("created_at").notNull().defaultNow(),
    /** Set when a rotation replaces this secret: it stops working then. Null for the current secret. */
    expiresAt: ts("expires_at"),
    revokedAt: ts("revoked_at"),
  },
  (t) => [index("api_tokens_account_idx").on(t.accountId), index("api_tokens_key_idx").on(t.keyId)],
);

const sqlList = (values: readonly string[]) => sql.raw(values.map((v) => `'${v}'`).join(", "));

/**
 * The request queue's entries; every statement on this table lives in src/queue/. Partitioned by
 * RANGE (id) on time (decision 020, migration 0014): drizzle-kit does not model PARTITION BY, so
 * this is the typed description of the parent and the migration is the truth.
 */
export const requests = pgTable(
  "requests",
  {
    accountId: text("account_id").notNull(),
    id: uuid("id").notNull(),
    /**
     * Global acceptance order: per-account FIFO processing and newest-first listing both key on it.
     * Unique by construction (one sequence) but not by index: a unique index on a partitioned table
     * must hold the partition key (decision 020).
     */
    seq: bigserial("seq", { mode: "number" }).notNull(),
    kind: text("kind").notNull(),
    status: text("status").notNull(),
    traceId: text("trace_id").notNull(),
    /** The accept call's span (W3C traceparent) when tracing was on: the worker's spans link to it. */
    traceparent: text("traceparent"),
    idempotencyKey: text("idempotency_key"),
    /** The API key that submitted it; null for requests accepted before API keys existed. */
    apiKeyId: text("api_key_id"),
    /** Path parameters of the ingest call (the return of a dispositions batch). */
    params: jsonb("params").$type<Record<string, string>>(),
    /**
     * The body of a request accepted before migration 0022, as jsonb; null for every later one.
     * Readers take `coalesce(body, legacy_body::json)` (decision 028); a later migration drops it
     * once the retention period has passed since the upgrade.
     */
    legacyBody: jsonb("legacy_body"),
    /**
     * The body as accepted (the JSON text the ingest route serialised once), as `json`: read back
     * whole, never queried into, so jsonb's binary form would only cost (decision 028). Null only
     * in rows that hold `legacy_body` (CHECK requests_body_present).
     */
    body: json("body"),
    itemCount: integer("item_count").notNull(),
    acceptedAt: ts("accepted_at").notNull().defaultNow(),
    startedAt: ts("started_at"),
    completedAt: ts("completed_at"),
    /** Attempts started; counted when an attempt starts, so a worker dying in one has used it. */
    attempts: integer("attempts").notNull().default(0),
    nextAttemptAt: ts("next_attempt_at").notNull().defaultNow(),
    result: jsonb("result"),
    errors: jsonb("errors"),
    error: jsonb("error"),
    /** The request this one sends again (POST /requests/{id}/retry; decision 014). */
    retryOf: uuid("retry_of"),
    /** The newest request sending this one again; set in the transaction that accepts it. */
    retriedBy: uuid("retried_by"),
  },
  (t) => [
    primaryKey({ columns: [t.accountId, t.id] }),
    // The bulk retry's selection: an account's final, not yet retried requests by acceptance time.
    // Partial, so it holds only the few requests that failed or died.
    index("requests_retryable_idx")
      .on(t.accountId, t.acceptedAt)
      .where(sql`status in (${sqlList(RETRYABLE_STATUSES)}) and retried_by is null`),
    index("requests_account_seq_idx").on(t.accountId, t.seq),
    // An account's open requests in FIFO order: the head is the first entry.
    index("requests_open_idx")
      .on(t.accountId, t.seq)
      .where(sql`status in (${sqlList(OPEN_STATUSES)})`),
    check("requests_status_check", sql`status in (${sqlList(REQUEST_STATUSES)})`),
    check("requests_kind_check", sql`kind in (${sqlList(REQUEST_KINDS)})`),
    check("requests_body_present", sql`body is not null or legacy_body is not null`),
  ],
);

/**
 * One row per account that has ever queued a request: how many of its requests are open, when it
 * next needs a worker, and which worker holds it. Workers claim accounts here, so a claim reads
 * O(accounts due) rows whatever the backlog (decision 009).
 */
export const requestQueues = pgTable(
  "request_queues",
  {
    accountId: text("account_id").primaryKey(),
    /** Requests pending or processing; kept by the statements that accept and finish requests. */
    openCount: integer("open_count").notNull().default(0),
    /**
     * When the account next needs a worker: null with nothing open; now for work waiting; the head's
     * retry time during a backoff; the lease's end while a worker holds it (a worker that dies is
     * replaced then).
     */
    dueAt: ts("due_at"),
    leaseOwner: text("lease_owner"),
    leaseUntil: ts("lease_until"),
  },
  (t) => [index("request_queues_due_idx").on(t.dueAt).where(sql`due_at is not null`)],
);

/**
 * Partitioned by RANGE (created_at), one partition a day (decision 020): the key is unique per
 * (account, endpoint, key) among the live rows (the last 24 h), which the accept statement keeps
 * under an advisory lock on the key; rows past the window wait for their partition to be dropped.
 */
export const idempotencyKeys = pgTable(
  "idempotency_keys",
  {
    accountId: text("account_id").notNull(),
    /** Method and path of the ingest call, e.g. "POST /ingest/orders". */
    endpoint: text("endpoint").notNull(),
    key: text("key").notNull(),
    bodyHash: text("body_hash").notNull(),
    requestId: uuid("request_id").notNull(),
    response: jsonb("response").notNull(),
    createdAt: ts("created_at").notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.accountId, t.endpoint, t.key, t.createdAt] })],
);

export const orders = pgTable(
  "orders",
  {
    accountId: text("account_id").notNull(),
    id: text("id").notNull(),
    externalId: text("external_id").notNull(),
    status: text("status").notNull(),
    source: text("source").notNull(),
    feedSeq: bigint("feed_seq", { mode: "number" }).notNull(),
    updatedAt: ts("updated_at").notNull(),
    body: jsonb("body").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.accountId, t.id] }),
    uniqueIndex("orders_external_idx").on(t.accountId, t.externalId),
    uniqueIndex("orders_feed_idx").on(t.accountId, t.feedSeq),
  ],
);

export const shipments = pgTable(
  "shipments",
  {
    accountId: text("account_id").notNull(),
    id: text("id").notNull(),
    externalId: text("external_id").notNull(),
    orderId: text("order_id").notNull(),
    body: jsonb("body").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.accountId, t.id] }),
    uniqueIndex("shipments_external_idx").on(t.accountId, t.externalId),
  ],
);

export const returns = pgTable(
  "returns",
  {
    accountId: text("account_id").notNull(),
    id: text("id").notNull(),
    externalId: text("external_id").notNull(),
    orderId: text("order_id").notNull(),
    status: text("status").notNull(),
    feedSeq: bigint("feed_seq", { mode: "number" }).notNull(),
    updatedAt: ts("updated_at").notNull(),
    body: jsonb("body").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.accountId, t.id] }),
    uniqueIndex("returns_external_idx").on(t.accountId, t.externalId),
    uniqueIndex("returns_feed_idx").on(t.accountId, t.feedSeq),
    index("returns_order_idx").on(t.accountId, t.orderId),
  ],
);

export const inventoryLevels = pgTable(
  "inventory_levels",
  {
    accountId: text("account_id").notNull(),
    locationId: text("location_id").notNull(),
    sku: text("sku").notNull(),
    asOf: ts("as_of").notNull(),
    body: jsonb("body").notNull(),
  },
  (t) => [primaryKey({ columns: [t.accountId, t.locationId, t.sku] })],
);

/** Transactional outbox: written with the change that causes it, delivered by the webhook dispatcher. */
export const events = pgTable(
  "events",
  {
    accountId: text("account_id").notNull(),
    id: text("id").notNull(),
    /** Insertion order across accounts, for the dispatcher's fan-out only: not commit order. */
    seq: bigserial("seq", { mode: "number" }).notNull(),
    /**
     * Position in the account's GET /events feed, from `accounts.feed_seq` under the account row
     * lock (outbox/positions.ts), so in commit order. Null for `webhook.test` events, which are not
     * listed. Only outbox/ writes this table (outbox/index.ts).
     */
    feedSeq: bigint("feed_seq", { mode: "number" }),
    type: text("type").notNull(),
    payload: jsonb("payload").notNull(),
    createdAt: ts("created_at").notNull().defaultNow(),
    /** Set once the dispatcher has fanned the event out into deliveries. */
    dispatchedAt: ts("dispatched_at"),
    /** The apply span that wrote the event (W3C traceparent) when tracing was on: deliveries continue its trace. */
    traceparent: text("traceparent"),
  },
  (t) => [
    // Partitioned by RANGE (created_at), which is the time of the id's ULID (decision 020): a
    // key must hold the partition key, and a lookup by id adds `created_at = <time of id>`.
    primaryKey({ columns: [t.accountId, t.id, t.createdAt] }),
    check("events_created_at_check", sql`created_at = oisr_ulid_time(id)`),
    index("events_undispatched_idx").on(t.seq).where(sql`dispatched_at is null`),
    // Not unique (it cannot be without created_at): only positions.ts hands out feed_seq, under the account row lock.
    index("events_feed_idx").on(t.accountId, t.feedSeq),
  ],
);

/** Per-second buckets of allowed calls; the rolling 60 s window is the sum of the last 60. */
export const rateLimitBuckets = pgTable(
  "rate_limit_buckets",
  {
    accountId: text("account_id").notNull(),
    scope: text("scope").notNull(),
    second: bigint("second", { mode: "number" }).notNull(),
    count: integer("count").notNull(),
  },
  (t) => [primaryKey({ columns: [t.accountId, t.scope, t.second] })],
);

/**
 * The time partitions of the partitioned tables (decision 020), written only by the migration's
 * oisr_ensure_partitions and by partitions/ when it drops one, in the same transaction as the DDL.
 */
export const oisrPartitions = pgTable(
  "oisr_partitions",
  {
    name: text("name").primaryKey(),
    parent: text("parent").notNull(),
    fromAt: ts("from_at").notNull(),
    toAt: ts("to_at").notNull(),
    /** Set when a retention pass claims the partition to detach and drop it (partitions/retention.ts). */
    detachStartedAt: ts("detach_started_at"),
  },
  (t) => [index("oisr_partitions_parent_idx").on(t.parent, t.fromAt)],
);

/** Secrets shared by every process on this database (the cursor signing key). */
export const serverSecrets = pgTable("server_secrets", {
  name: text("name").primaryKey(),
  value: text("value").notNull(),
  createdAt: ts("created_at").notNull().defaultNow(),
});
