-- Request bodies and results compressed with lz4 instead of pglz, where the server has lz4
-- (PostgreSQL built --with-lz4, as Debian's and the official images are; PGlite has only pglz, and
-- there nothing changes). A value over ~2 kB is TOASTed and compressed when written: the 1 MB bodies
-- of bench/e2e-throughput.ts took 9.0 ms of PostgreSQL CPU to insert with pglz and 5.5 ms with lz4,
-- read back in the same time (PostgreSQL 15, 40 inserts each, same run); their 87 kB results
-- (1,000 items) 2.0 and 1.55 ms (200 inserts each). Compression is a property of each partition's
-- column: SET COMPRESSION on the parent does not reach the partitions it has, so each is altered
-- too, and the partitions made from now on copy it from the parent (`INCLUDING COMPRESSION`;
-- otherwise the function is 0015's). Only values written afterwards are compressed with lz4; a
-- value keeps the method it was written with, and both read back alike.
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
    EXECUTE format('CREATE TABLE %I (LIKE %I INCLUDING DEFAULTS INCLUDING CONSTRAINTS INCLUDING COMPRESSION)', v_name, p_parent);
    EXECUTE format('ALTER TABLE %I ATTACH PARTITION %I FOR VALUES %s', p_parent, v_name, v_bounds);
    INSERT INTO oisr_partitions (name, parent, from_at, to_at) VALUES (v_name, p_parent, v_lo, v_hi);
    v_created := v_created + 1;
    v_at := v_hi;
  END LOOP;
  RETURN v_created;
END
$$;--> statement-breakpoint
DO $$
DECLARE
  v_part regclass;
BEGIN
  IF 'lz4' = ANY ((SELECT enumvals FROM pg_settings WHERE name = 'default_toast_compression')::text[]) THEN
    ALTER TABLE requests ALTER COLUMN body SET COMPRESSION lz4, ALTER COLUMN result SET COMPRESSION lz4;
    FOR v_part IN SELECT inhrelid::regclass FROM pg_inherits WHERE inhparent = 'requests'::regclass LOOP
      EXECUTE format('ALTER TABLE %s ALTER COLUMN body SET COMPRESSION lz4, ALTER COLUMN result SET COMPRESSION lz4', v_part);
    END LOOP;
  END IF;
END
$$;
