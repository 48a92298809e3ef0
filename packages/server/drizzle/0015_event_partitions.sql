-- Time partitions for the webhook history (decision 020): `events` and `webhook_deliveries` by
-- RANGE (created_at), where created_at is the time of the row's id (a ULID after the type prefix),
-- so a lookup by id adds `created_at = oisr_ulid_time(id)` and reads one partition. Retention drops
-- the same range of both tables together, like `requests` (partitions/ in the server), instead of
-- the row-by-row prune. Existing tables are converted in place as 0014 did; old rows take their
-- id's time as created_at (writers set it a few milliseconds apart before).
-- drizzle-kit does not model PARTITION BY; src/db/schema.ts and webhook-schema.ts describe the parents.
-- The time of a server id `<prefix>_<ULID>`: the ULID's first ten Crockford base32 characters are
-- unix milliseconds. One expression, so PostgreSQL inlines it (it runs in a CHECK on every insert
-- and in the lookups by id). Never raises: a character outside the alphabet reads as -1, so a
-- malformed id gives a time no row has, and a lookup by it finds nothing.
CREATE FUNCTION oisr_ulid_time(p_id text) RETURNS timestamptz LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
  SELECT timestamptz 'epoch' + interval '1 millisecond' * (
    (strpos('0123456789ABCDEFGHJKMNPQRSTVWXYZ', substr(upper(p_id), strpos(p_id, '_') + 1, 1)) - 1)::bigint * 35184372088832 +
    (strpos('0123456789ABCDEFGHJKMNPQRSTVWXYZ', substr(upper(p_id), strpos(p_id, '_') + 2, 1)) - 1)::bigint * 1099511627776 +
    (strpos('0123456789ABCDEFGHJKMNPQRSTVWXYZ', substr(upper(p_id), strpos(p_id, '_') + 3, 1)) - 1)::bigint * 34359738368 +
    (strpos('0123456789ABCDEFGHJKMNPQRSTVWXYZ', substr(upper(p_id), strpos(p_id, '_') + 4, 1)) - 1)::bigint * 1073741824 +
    (strpos('0123456789ABCDEFGHJKMNPQRSTVWXYZ', substr(upper(p_id), strpos(p_id, '_') + 5, 1)) - 1)::bigint * 33554432 +
    (strpos('0123456789ABCDEFGHJKMNPQRSTVWXYZ', substr(upper(p_id), strpos(p_id, '_') + 6, 1)) - 1)::bigint * 1048576 +
    (strpos('0123456789ABCDEFGHJKMNPQRSTVWXYZ', substr(upper(p_id), strpos(p_id, '_') + 7, 1)) - 1)::bigint * 32768 +
    (strpos('0123456789ABCDEFGHJKMNPQRSTVWXYZ', substr(upper(p_id), strpos(p_id, '_') + 8, 1)) - 1)::bigint * 1024 +
    (strpos('0123456789ABCDEFGHJKMNPQRSTVWXYZ', substr(upper(p_id), strpos(p_id, '_') + 9, 1)) - 1)::bigint * 32 +
    (strpos('0123456789ABCDEFGHJKMNPQRSTVWXYZ', substr(upper(p_id), strpos(p_id, '_') + 10, 1)) - 1)::bigint * 1)
$$;--> statement-breakpoint
-- As in 0014, with `events` and `webhook_deliveries` among the partitioned tables (bounds on
-- created_at, like idempotency_keys).
CREATE OR REPLACE FUNCTION oisr_ensure_table_partitions(p_parent text, p_from timestamptz, p_to timestamptz, p_interval interval)
RETURNS integer LANGUAGE plpgsql AS $$
DECLARE
  v_step double precision := extract(epoch FROM p_interval);
  v_at timestamptz;
  v_lo timestamptz;
  v_hi timestamptz;
  v_name text;
  v_bounds text;
  v_created integer := 0;
BEGIN
  IF v_step < 60 THEN
    RAISE EXCEPTION 'partition interval must be at least 1 minute, got %', p_interval;
  END IF;
  IF p_parent NOT IN ('requests', 'idempotency_keys', 'events', 'webhook_deliveries') THEN
    RAISE EXCEPTION 'not a partitioned table: %', p_parent;
  END IF;
  PERFORM pg_advisory_xact_lock(hashtext('oisr_partitions'), hashtext(p_parent));
  v_at := to_timestamp(floor(extract(epoch FROM p_from) / v_step) * v_step);
  WHILE v_at < p_to LOOP
    SELECT to_at INTO v_hi FROM oisr_partitions WHERE parent = p_parent AND from_at <= v_at AND to_at > v_at;
    IF FOUND THEN
      v_at := v_hi;
      CONTINUE;
    END IF;
    v_lo := greatest(to_timestamp(floor(extract(epoch FROM v_at) / v_step) * v_step),
                     coalesce((SELECT max(to_at) FROM oisr_partitions WHERE parent = p_parent AND to_at <= v_at), '-infinity'));
    v_hi := least(to_timestamp(floor(extract(epoch FROM v_at) / v_step) * v_step) + p_interval,
                  coalesce((SELECT min(from_at) FROM oisr_partitions WHERE parent = p_parent AND from_at > v_at), 'infinity'));
    v_name := p_parent || '_p' || to_char(v_lo AT TIME ZONE 'UTC', 'YYYYMMDD"_"HH24MISS');
    v_bounds := CASE p_parent
      WHEN 'requests' THEN format('FROM (%L) TO (%L)', oisr_uuid7_floor(v_lo), oisr_uuid7_floor(v_hi))
      ELSE format('FROM (%L) TO (%L)', v_lo, v_hi) END;
    EXECUTE format('CREATE TABLE %I (LIKE %I INCLUDING DEFAULTS INCLUDING CONSTRAINTS)', v_name, p_parent);
    EXECUTE format('ALTER TABLE %I ATTACH PARTITION %I FOR VALUES %s', p_parent, v_name, v_bounds);
    INSERT INTO oisr_partitions (name, parent, from_at, to_at) VALUES (v_name, p_parent, v_lo, v_hi);
    v_created := v_created + 1;
    v_at := v_hi;
  END LOOP;
  RETURN v_created;
END
$$;--> statement-breakpoint
-- Every partitioned table: `requests`, `events` and `webhook_deliveries` at `p_interval` (one
-- interval for the three, so a retention pass drops the same range of each), `idempotency_keys`
-- by the day.
CREATE OR REPLACE FUNCTION oisr_ensure_partitions(p_from timestamptz, p_to timestamptz, p_interval interval DEFAULT interval '1 day')
RETURNS integer LANGUAGE sql AS $$
  SELECT oisr_ensure_table_partitions('requests', p_from, p_to, p_interval)
       + oisr_ensure_table_partitions('events', p_from, p_to, p_interval)
       + oisr_ensure_table_partitions('webhook_deliveries', p_from, p_to, p_interval)
       + oisr_ensure_table_partitions('idempotency_keys', p_from, p_to, interval '1 day')
$$;--> statement-breakpoint
-- Event and delivery ids have been `<prefix>_<ULID>` since the first release (store/ids.ts); one
-- that is not carries no time and fits no partition, so the migration stops rather than drop it.
DO $$
BEGIN
  IF EXISTS (SELECT 1 FROM events WHERE id !~ '^[a-z]+_[0-7][0-9A-HJKMNP-TV-Z]{25}$')
     OR EXISTS (SELECT 1 FROM webhook_deliveries WHERE id !~ '^[a-z]+_[0-7][0-9A-HJKMNP-TV-Z]{25}$') THEN
    RAISE EXCEPTION 'events or webhook_deliveries hold ids that are not ULIDs; they cannot be placed in time partitions';
  END IF;
END
$$;--> statement-breakpoint
ALTER TABLE "events" RENAME TO "events_unpartitioned";--> statement-breakpoint
ALTER TABLE "events_unpartitioned" RENAME CONSTRAINT "events_account_id_id_pk" TO "events_unpartitioned_pk";--> statement-breakpoint
DROP INDEX "events_undispatched_idx";--> statement-breakpoint
DROP INDEX "events_feed_idx";--> statement-breakpoint
CREATE TABLE "events" (
	"account_id" text NOT NULL,
	"id" text NOT NULL,
	"seq" bigint DEFAULT nextval('events_seq_seq') NOT NULL,
	"feed_seq" bigint,
	"type" text NOT NULL,
	"payload" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"dispatched_at" timestamp with time zone,
	"traceparent" text,
	CONSTRAINT "events_account_id_id_created_at_pk" PRIMARY KEY("account_id","id","created_at"),
	-- The rule every lookup by id relies on (a row breaking it could not be found by its id).
	CONSTRAINT "events_created_at_check" CHECK (created_at = oisr_ulid_time(id))
) PARTITION BY RANGE ("created_at");--> statement-breakpoint
-- The sequence goes on with the new table (dropping the old one would drop it otherwise).
ALTER SEQUENCE "events_seq_seq" OWNED BY "events"."seq";--> statement-breakpoint
CREATE INDEX "events_undispatched_idx" ON "events" USING btree ("seq") WHERE dispatched_at is null;--> statement-breakpoint
-- Plain, not unique: a unique index on a partitioned table must hold the partition key. feed_seq
-- stays unique per account because only outbox/positions.ts hands it out, under the account row lock.
CREATE INDEX "events_feed_idx" ON "events" USING btree ("account_id","feed_seq");--> statement-breakpoint
-- A partition for each day that holds rows (not every day between the oldest and now), and, in a
-- database that has served requests, for the days around now (the previous release's servers may
-- write during a rolling upgrade). A new database gets none here: the server's start makes them at
-- the interval its retention asks for (as in 0014; partitions/startup.test.ts).
SELECT oisr_ensure_table_partitions('events', d, d + interval '1 day', interval '1 day')
  FROM (SELECT DISTINCT date_trunc('day', oisr_ulid_time(id), 'UTC') AS d FROM events_unpartitioned) days;--> statement-breakpoint
SELECT oisr_ensure_table_partitions('events', now() - interval '1 day', now() + interval '2 days', interval '1 day')
 WHERE EXISTS (SELECT 1 FROM requests);--> statement-breakpoint
INSERT INTO "events" ("account_id", "id", "seq", "feed_seq", "type", "payload", "created_at", "dispatched_at", "traceparent")
SELECT "account_id", "id", "seq", "feed_seq", "type", "payload", oisr_ulid_time("id"), "dispatched_at", "traceparent"
  FROM "events_unpartitioned";--> statement-breakpoint
DROP TABLE "events_unpartitioned";--> statement-breakpoint
ALTER TABLE "webhook_deliveries" RENAME TO "webhook_deliveries_unpartitioned";--> statement-breakpoint
ALTER TABLE "webhook_deliveries_unpartitioned" RENAME CONSTRAINT "webhook_deliveries_account_id_id_pk" TO "webhook_deliveries_unpartitioned_pk";--> statement-breakpoint
DROP INDEX "webhook_deliveries_attempt_idx";--> statement-breakpoint
DROP INDEX "webhook_deliveries_subscription_idx";--> statement-breakpoint
DROP INDEX "webhook_deliveries_event_idx";--> statement-breakpoint
DROP INDEX "webhook_deliveries_due_idx";--> statement-breakpoint
DROP INDEX "webhook_deliveries_pending_event_idx";--> statement-breakpoint
DROP INDEX "webhook_deliveries_created_idx";--> statement-breakpoint
CREATE TABLE "webhook_deliveries" (
	"account_id" text NOT NULL,
	"id" text NOT NULL,
	"subscription_id" text NOT NULL,
	"event_id" text NOT NULL,
	"event_type" text NOT NULL,
	"trigger" text DEFAULT 'event' NOT NULL,
	"round" integer DEFAULT 0 NOT NULL,
	"attempt" integer NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"next_attempt_at" timestamp with time zone,
	"lease_owner" text,
	"lease_until" timestamp with time zone,
	"attempted_at" timestamp with time zone,
	"response_status" integer,
	"response_content_type" text,
	"response_body" text,
	"error" text,
	"retry_after_seconds" integer,
	"duration_ms" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "webhook_deliveries_account_id_id_created_at_pk" PRIMARY KEY("account_id","id","created_at"),
	CONSTRAINT "webhook_deliveries_created_at_check" CHECK (created_at = oisr_ulid_time(id))
) PARTITION BY RANGE ("created_at");--> statement-breakpoint
-- Plain, not unique (it would have to hold created_at): a sending is kept single by its writer's
-- lock, the event claim of fan-out, the attempt's lease, the subscription lock of retry and recover.
CREATE INDEX "webhook_deliveries_attempt_idx" ON "webhook_deliveries" USING btree ("account_id","subscription_id","event_id","round","attempt");--> statement-breakpoint
CREATE INDEX "webhook_deliveries_subscription_idx" ON "webhook_deliveries" USING btree ("account_id","subscription_id","id");--> statement-breakpoint
CREATE INDEX "webhook_deliveries_event_idx" ON "webhook_deliveries" USING btree ("account_id","event_id");--> statement-breakpoint
CREATE INDEX "webhook_deliveries_due_idx" ON "webhook_deliveries" USING btree ("next_attempt_at") WHERE status = 'pending';--> statement-breakpoint
CREATE INDEX "webhook_deliveries_pending_event_idx" ON "webhook_deliveries" USING btree ("event_id","account_id") WHERE status = 'pending';--> statement-breakpoint
SELECT oisr_ensure_table_partitions('webhook_deliveries', d, d + interval '1 day', interval '1 day')
  FROM (SELECT DISTINCT date_trunc('day', oisr_ulid_time(id), 'UTC') AS d FROM webhook_deliveries_unpartitioned) days;--> statement-breakpoint
SELECT oisr_ensure_table_partitions('webhook_deliveries', now() - interval '1 day', now() + interval '2 days', interval '1 day')
 WHERE EXISTS (SELECT 1 FROM requests);--> statement-breakpoint
INSERT INTO "webhook_deliveries" ("account_id", "id", "subscription_id", "event_id", "event_type", "trigger", "round",
  "attempt", "status", "next_attempt_at", "lease_owner", "lease_until", "attempted_at", "response_status",
  "response_content_type", "response_body", "error", "retry_after_seconds", "duration_ms", "created_at")
SELECT "account_id", "id", "subscription_id", "event_id", "event_type", "trigger", "round",
  "attempt", "status", "next_attempt_at", "lease_owner", "lease_until", "attempted_at", "response_status",
  "response_content_type", "response_body", "error", "retry_after_seconds", "duration_ms", oisr_ulid_time("id")
  FROM "webhook_deliveries_unpartitioned";--> statement-breakpoint
DROP TABLE "webhook_deliveries_unpartitioned";
