-- Retention detaches a partition with DETACH PARTITION … CONCURRENTLY before dropping it (decision
-- 020, session 14): a plain DROP of a partition holds the parent's ACCESS EXCLUSIVE lock until it
-- commits, and every insert into the parent waited behind it (ingest p99 2.49× during a pass at 10
-- million requests). A concurrent detach cannot run inside a transaction, so no transaction lock can
-- cover it; `detach_started_at` is the claim instead: set by the pass that takes the partition, in
-- the transaction that holds the retention lock, and taken over by a later pass only once stale (the
-- claimer crashed), which finishes whatever step the catalog shows was left.
ALTER TABLE "oisr_partitions" ADD COLUMN "detach_started_at" timestamp with time zone;
