-- The dispatcher's claim probes each subscription instead of grouping every due attempt (decision
-- 019, "claim cost"): the oldest due attempt of one subscription is the first entry of its range
-- in webhook_deliveries_pending_idx, and its leases are the few rows of
-- webhook_deliveries_leased_idx (at most the per-subscription concurrency, plus leases of dead
-- dispatchers until they are claimed again). Both are partial, so delivered history adds nothing
-- to them. Built on the partitioned parent: every partition, present and future, gets them.
CREATE INDEX "webhook_deliveries_pending_idx" ON "webhook_deliveries" USING btree ("account_id","subscription_id","next_attempt_at") WHERE status = 'pending';--> statement-breakpoint
CREATE INDEX "webhook_deliveries_leased_idx" ON "webhook_deliveries" USING btree ("account_id","subscription_id","lease_until") WHERE status = 'pending' and lease_owner is not null;
