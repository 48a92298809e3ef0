-- Time partitions for what expires (decision 020): `requests` by RANGE (id), whose UUIDv7 carries
-- its acceptance time in the first 48 bits, and `idempotency_keys` by RANGE (created_at). Retention
-- then drops whole partitions (partitions/ in the server) instead of deleting rows. Existing tables
-- are converted in place: renamed, rows copied into the partitioned table, dropped.
-- drizzle-kit does not model PARTITION BY; src/db/schema.ts describes the parents' columns and keys.
CREATE TABLE "oisr_partitions" (
	"name" text PRIMARY KEY NOT NULL,
	"parent" text NOT NULL,
	"from_at" timestamp with time zone NOT NULL,
	"to_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE INDEX "oisr_partitions_parent_idx" ON "oisr_partitions" USING btree ("parent","from_at");--> statement-breakpoint
-- The smallest UUID of a millisecond: unix ms in the first 48 bits, the rest zero. Every UUIDv7
-- made at or after `p_at` sorts at or above it (uuid compares bytewise).
CREATE FUNCTION oisr_uuid7_floor(p_at timestamptz) RETURNS uuid LANGUAGE sql IMMUTABLE STRICT AS $$
  SELECT (substr(h, 1, 8) || '-' || substr(h, 9, 4) || '-0000-0000-000000000000')::uuid
    FROM (SELECT lpad(to_hex(floor(extract(epoch FROM p_at) * 1000)::bigint), 12, '0') AS h) x
$$;--> statement-breakpoint
-- The time a UUIDv7 carries.
CREATE FUNCTION oisr_uuid7_time(p_id uuid) RETURNS timestamptz LANGUAGE sql IMMUTABLE STRICT AS $$
  SELECT to_timestamp((('x' || substr(replace(p_id::text, '-', ''), 1, 12))::bit(48)::bigint) / 1000.0)
$$;--> statement-breakpoint
-- Creates the partitions of one table covering [p_from, p_to), each `p_interval` long and aligned
-- on multiples of it since the epoch (UTC days for '1 day'). A range already covered is skipped and
-- a new partition is clipped to its neighbours, so a changed interval never makes overlapping
-- bounds. Each is made empty and then attached: ATTACH takes SHARE UPDATE EXCLUSIVE on the parent,
-- so inserts and reads go on meanwhile. Serialised by a transaction advisory lock. Returns the
-- number created.
CREATE FUNCTION oisr_ensure_table_partitions(p_parent text, p_from timestamptz, p_to timestamptz, p_interval interval)
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
  IF p_parent NOT IN ('requests', 'idempotency_keys') THEN
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
-- Every partitioned table's partitions covering [p_from, p_to): `requests` at `p_interval` (the
-- server passes a tenth of the retention, at most a day), `idempotency_keys` always by the day, so
-- a lookup within its 24 h window reads at most two partitions. Returns the number created.
CREATE FUNCTION oisr_ensure_partitions(p_from timestamptz, p_to timestamptz, p_interval interval DEFAULT interval '1 day')
RETURNS integer LANGUAGE sql AS $$
  SELECT oisr_ensure_table_partitions('requests', p_from, p_to, p_interval)
       + oisr_ensure_table_partitions('idempotency_keys', p_from, p_to, interval '1 day')
$$;--> statement-breakpoint
-- Takes the advisory locks of the idempotency keys of an accept statement's keyed rows, sorted, then
-- stores the rows whose key has no live record (created within p_window) and returns their request
-- ids. A unique index cannot say "one live row per key" on a table partitioned by created_at, so
-- the lock does: callers with the same (endpoint, key) queue on it, and since a PL/pgSQL statement
-- takes its own snapshot, the check after the lock sees a row the previous holder committed. The
-- account is left out of the lock key because a deferred call's account is known only inside the
-- statement; keys that collide across accounts wait for each other, nothing more. Lock order:
-- every caller takes the rate-limit advisory locks (oisr_authorize_keys) before these.
CREATE FUNCTION oisr_claim_idempotency_keys(p_rows jsonb, p_window interval)
RETURNS TABLE (request_id uuid) LANGUAGE plpgsql AS $$
BEGIN
  IF p_rows IS NULL OR jsonb_array_length(p_rows) = 0 THEN
    RETURN;
  END IF;
  PERFORM pg_advisory_xact_lock(hashtext('oisr_idempotency'), l.k)
     FROM (SELECT DISTINCT hashtext(x.e || chr(1) || x.ik) AS k
             FROM jsonb_to_recordset(p_rows) AS x(e text, ik text) ORDER BY 1) l;
  RETURN QUERY
  INSERT INTO idempotency_keys AS t (account_id, endpoint, key, body_hash, request_id, response)
  SELECT DISTINCT ON (r.v->>'a', r.v->>'e', r.v->>'ik')
         r.v->>'a', r.v->>'e', r.v->>'ik', r.v->>'h', (r.v->>'i')::uuid, r.v->'x'
    FROM jsonb_array_elements(p_rows) WITH ORDINALITY AS r(v, n)
   WHERE NOT EXISTS (SELECT 1 FROM idempotency_keys k
                      WHERE k.account_id = r.v->>'a' AND k.endpoint = r.v->>'e' AND k.key = r.v->>'ik'
                        AND k.created_at >= now() - p_window)
   ORDER BY r.v->>'a', r.v->>'e', r.v->>'ik', r.n
  RETURNING t.request_id;
END
$$;--> statement-breakpoint
ALTER TABLE "requests" RENAME TO "requests_unpartitioned";--> statement-breakpoint
ALTER TABLE "requests_unpartitioned" RENAME CONSTRAINT "requests_account_id_id_pk" TO "requests_unpartitioned_pk";--> statement-breakpoint
DROP INDEX "requests_seq_idx";--> statement-breakpoint
DROP INDEX "requests_account_seq_idx";--> statement-breakpoint
DROP INDEX "requests_open_idx";--> statement-breakpoint
DROP INDEX "requests_accepted_idx";--> statement-breakpoint
DROP INDEX "requests_retryable_idx";--> statement-breakpoint
CREATE TABLE "requests" (
	"account_id" text NOT NULL,
	"id" uuid NOT NULL,
	"seq" bigint DEFAULT nextval('requests_seq_seq') NOT NULL,
	"kind" text NOT NULL,
	"status" text NOT NULL,
	"trace_id" text NOT NULL,
	"traceparent" text,
	"idempotency_key" text,
	"api_key_id" text,
	"params" jsonb,
	"body" jsonb NOT NULL,
	"item_count" integer NOT NULL,
	"accepted_at" timestamp with time zone DEFAULT now() NOT NULL,
	"started_at" timestamp with time zone,
	"completed_at" timestamp with time zone,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
	"result" jsonb,
	"errors" jsonb,
	"error" jsonb,
	"retry_of" uuid,
	"retried_by" uuid,
	CONSTRAINT "requests_account_id_id_pk" PRIMARY KEY("account_id","id"),
	CONSTRAINT "requests_status_check" CHECK (status in ('pending', 'processing', 'succeeded', 'failed', 'dead')),
	CONSTRAINT "requests_kind_check" CHECK (kind in ('orders', 'inventory', 'shipments', 'returns', 'dispositions'))
) PARTITION BY RANGE ("id");--> statement-breakpoint
-- The sequence goes on with the new table (dropping the old one would drop it otherwise).
ALTER SEQUENCE "requests_seq_seq" OWNED BY "requests"."seq";--> statement-breakpoint
-- Plain, not unique: a unique index on a partitioned table must hold the partition key. seq stays
-- unique because only the sequence writes it; nothing relies on the index for uniqueness.
CREATE INDEX "requests_seq_idx" ON "requests" USING btree ("seq");--> statement-breakpoint
CREATE INDEX "requests_account_seq_idx" ON "requests" USING btree ("account_id","seq");--> statement-breakpoint
CREATE INDEX "requests_open_idx" ON "requests" USING btree ("account_id","seq") WHERE status in ('pending', 'processing');--> statement-breakpoint
CREATE INDEX "requests_accepted_idx" ON "requests" USING btree ("accepted_at");--> statement-breakpoint
CREATE INDEX "requests_retryable_idx" ON "requests" USING btree ("account_id","accepted_at") WHERE status in ('failed', 'dead') and retried_by is null;--> statement-breakpoint
-- Request ids have been UUIDv7 since the first release that shipped (store/ids.ts); an id of
-- another version carries no time and fits no partition, so the migration stops rather than drop it.
DO $$
BEGIN
  IF EXISTS (SELECT 1 FROM requests_unpartitioned WHERE substr(id::text, 15, 1) <> '7') THEN
    RAISE EXCEPTION 'requests holds ids that are not UUIDv7; they cannot be placed in time partitions';
  END IF;
END
$$;--> statement-breakpoint
-- A partition for each day that holds rows (not every day between the oldest and now: a database
-- never purged could span years), and, in a database that holds rows, for the days around now: the
-- previous release's servers may still be writing during a rolling upgrade. A new database gets
-- none here: the server's start makes them at the interval its retention asks for, which a day
-- made here would override until it passed (a covered range is skipped).
SELECT oisr_ensure_table_partitions('requests', d, d + interval '1 day', interval '1 day')
  FROM (SELECT DISTINCT date_trunc('day', oisr_uuid7_time(id), 'UTC') AS d FROM requests_unpartitioned) days;--> statement-breakpoint
SELECT oisr_ensure_table_partitions('requests', now() - interval '1 day', now() + interval '2 days', interval '1 day')
 WHERE EXISTS (SELECT 1 FROM requests_unpartitioned);--> statement-breakpoint
INSERT INTO "requests" ("account_id", "id", "seq", "kind", "status", "trace_id", "traceparent", "idempotency_key",
  "api_key_id", "params", "body", "item_count", "accepted_at", "started_at", "completed_at", "attempts",
  "next_attempt_at", "result", "errors", "error", "retry_of", "retried_by")
SELECT "account_id", "id", "seq", "kind", "status", "trace_id", "traceparent", "idempotency_key",
  "api_key_id", "params", "body", "item_count", "accepted_at", "started_at", "completed_at", "attempts",
  "next_attempt_at", "result", "errors", "error", "retry_of", "retried_by"
  FROM "requests_unpartitioned";--> statement-breakpoint
DROP TABLE "requests_unpartitioned";--> statement-breakpoint
ALTER TABLE "idempotency_keys" RENAME TO "idempotency_keys_unpartitioned";--> statement-breakpoint
ALTER TABLE "idempotency_keys_unpartitioned" RENAME CONSTRAINT "idempotency_keys_account_id_endpoint_key_pk" TO "idempotency_keys_unpartitioned_pk";--> statement-breakpoint
DROP INDEX "idempotency_created_idx";--> statement-breakpoint
CREATE TABLE "idempotency_keys" (
	"account_id" text NOT NULL,
	"endpoint" text NOT NULL,
	"key" text NOT NULL,
	"body_hash" text NOT NULL,
	"request_id" uuid NOT NULL,
	"response" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "idempotency_keys_account_id_endpoint_key_created_at_pk" PRIMARY KEY("account_id","endpoint","key","created_at")
) PARTITION BY RANGE ("created_at");--> statement-breakpoint
-- Only live keys move (within the 24 h window, plus a day of margin): older ones already answered
-- nothing, and the row-by-row purge this replaces would have deleted them.
SELECT oisr_ensure_table_partitions('idempotency_keys', now() - interval '2 days', now() + interval '2 days', interval '1 day');--> statement-breakpoint
INSERT INTO "idempotency_keys" ("account_id", "endpoint", "key", "body_hash", "request_id", "response", "created_at")
SELECT "account_id", "endpoint", "key", "body_hash", "request_id", "response", "created_at"
  FROM "idempotency_keys_unpartitioned" WHERE "created_at" >= now() - interval '2 days' AND "created_at" < now() + interval '2 days';--> statement-breakpoint
DROP TABLE "idempotency_keys_unpartitioned";
