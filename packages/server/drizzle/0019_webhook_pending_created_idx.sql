-- The claim's lower bound on the partitions it reads (webhooks/sql/claim.ts, decision 024, session
-- 15): the oldest pending attempt's created_at, the partition key. Every claim statement takes it
-- first, from the first entry of this index in the oldest partition that has one, and its per-
-- subscription probes then skip (run-time pruning) every partition wholly before it, instead of
-- descending two indexes of every partition per subscription (50 x 52 x 2 at minute partitions).
-- Partial, so delivered history adds nothing to it.
CREATE INDEX "webhook_deliveries_pending_created_idx" ON "webhook_deliveries" USING btree ("created_at") WHERE status = 'pending';
