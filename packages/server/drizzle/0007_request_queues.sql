CREATE TABLE "request_queues" (
	"account_id" text PRIMARY KEY NOT NULL,
	"open_count" integer DEFAULT 0 NOT NULL,
	"due_at" timestamp with time zone,
	"lease_owner" text,
	"lease_until" timestamp with time zone
);
--> statement-breakpoint
DROP INDEX "requests_queue_idx";--> statement-breakpoint
CREATE INDEX "request_queues_due_idx" ON "request_queues" USING btree ("due_at") WHERE due_at is not null;--> statement-breakpoint
CREATE INDEX "requests_open_idx" ON "requests" USING btree ("account_id","seq") WHERE status in ('pending', 'processing');--> statement-breakpoint
ALTER TABLE "requests" DROP COLUMN "lease_owner";--> statement-breakpoint
ALTER TABLE "requests" DROP COLUMN "lease_until";--> statement-breakpoint
ALTER TABLE "requests" ADD CONSTRAINT "requests_status_check" CHECK (status in ('pending', 'processing', 'succeeded', 'failed', 'dead'));--> statement-breakpoint
ALTER TABLE "requests" ADD CONSTRAINT "requests_kind_check" CHECK (kind in ('orders', 'inventory', 'shipments', 'returns', 'dispositions'));--> statement-breakpoint
-- Requests queued before this migration: their accounts are due now. A request a worker held under
-- the old per-request lease has its attempt counted already and is taken up again as the head.
INSERT INTO "request_queues" ("account_id", "open_count", "due_at")
SELECT "account_id", count(*), now() FROM "requests" WHERE status in ('pending', 'processing') GROUP BY "account_id";
