-- Request bodies stored as `json` (the text as accepted) instead of `jsonb` (decision 028). The
-- worker and GET /requests/{id}/body read a body back whole and never query into it, so nothing
-- uses what jsonb's binary form is for, and building it and rendering it back cost: a 1,000-order
-- body (1 MB) took 24.3 ms of PostgreSQL CPU to store through the accept statement as jsonb against
-- 8.5 ms as json, and 4.3 against 1.0 ms to read back (PostgreSQL 15, lz4, medians of 5 rounds of
-- 40 bodies; `node bench/body-storage.ts`).
--
-- Changing the column's type would rewrite every partition of `requests` (30 days of requests)
-- under an exclusive lock. Instead the jsonb column is renamed `legacy_body`, kept for the
-- requests accepted before this migration, and a new `body json` column takes every request from
-- now on; readers take `coalesce(body, legacy_body::json)`. Renaming and adding a nullable column
-- without a default change only the catalog. The CHECK, NOT VALID so that the existing rows are
-- not scanned, holds every new row to one of the two. Once the retention period (30 days by
-- default) has passed since the upgrade, no row holds `legacy_body`, and a later migration can
-- drop it.
ALTER TABLE "requests" RENAME COLUMN "body" TO "legacy_body";--> statement-breakpoint
ALTER TABLE "requests" ALTER COLUMN "legacy_body" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "requests" ADD COLUMN "body" json;--> statement-breakpoint
ALTER TABLE "requests" ADD CONSTRAINT "requests_body_present" CHECK ("body" IS NOT NULL OR "legacy_body" IS NOT NULL) NOT VALID;--> statement-breakpoint
-- lz4 where PostgreSQL has it, for the new column as 0017 did for the old (each partition's column
-- carries its own setting; partitions made from now on copy the parent's).
DO $$
DECLARE
  v_part regclass;
BEGIN
  IF 'lz4' = ANY ((SELECT enumvals FROM pg_settings WHERE name = 'default_toast_compression')::text[]) THEN
    ALTER TABLE requests ALTER COLUMN body SET COMPRESSION lz4;
    FOR v_part IN SELECT inhrelid::regclass FROM pg_inherits WHERE inhparent = 'requests'::regclass LOOP
      EXECUTE format('ALTER TABLE %s ALTER COLUMN body SET COMPRESSION lz4', v_part);
    END LOOP;
  END IF;
END
$$;
