CREATE TABLE "webhook_recoveries" (
	"account_id" text NOT NULL,
	"id" text NOT NULL,
	"subscription_id" text NOT NULL,
	"since" timestamp with time zone NOT NULL,
	"until" timestamp with time zone NOT NULL,
	"status" text DEFAULT 'running' NOT NULL,
	"events_queued" integer DEFAULT 0 NOT NULL,
	"after_feed_seq" bigint DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"completed_at" timestamp with time zone,
	CONSTRAINT "webhook_recoveries_account_id_id_pk" PRIMARY KEY("account_id","id")
);
--> statement-breakpoint
DROP INDEX "webhook_deliveries_attempt_idx";--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD COLUMN "trigger" text DEFAULT 'event' NOT NULL;--> statement-breakpoint
UPDATE "webhook_deliveries" SET "trigger" = 'test' WHERE "event_type" = 'webhook.test';--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD COLUMN "round" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD COLUMN "retry_after_seconds" integer;--> statement-breakpoint
ALTER TABLE "webhook_subscriptions" ADD COLUMN "paused_until" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "webhook_recoveries_running_idx" ON "webhook_recoveries" USING btree ("created_at") WHERE status = 'running';--> statement-breakpoint
CREATE INDEX "webhook_deliveries_pending_event_idx" ON "webhook_deliveries" USING btree ("event_id","account_id") WHERE status = 'pending';--> statement-breakpoint
CREATE UNIQUE INDEX "webhook_deliveries_attempt_idx" ON "webhook_deliveries" USING btree ("account_id","subscription_id","event_id","round","attempt");