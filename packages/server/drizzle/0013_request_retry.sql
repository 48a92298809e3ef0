-- Sending a request again (POST /requests/{request_id}/retry, decision 014): the new request names
-- its original in retry_of, the original names its newest retry in retried_by. Both null for
-- requests submitted by an ingest call, so adding them rewrites no row.
ALTER TABLE "requests" ADD COLUMN "retry_of" uuid;--> statement-breakpoint
ALTER TABLE "requests" ADD COLUMN "retried_by" uuid;--> statement-breakpoint
-- The bulk retry's selection: an account's failed or dead requests not yet retried, by acceptance
-- time. Partial, so it holds only the requests that failed or died, and leaves them once retried.
CREATE INDEX "requests_retryable_idx" ON "requests" USING btree ("account_id","accepted_at") WHERE status in ('failed', 'dead') and retried_by is null;
