ALTER TABLE "events" ADD COLUMN "traceparent" text;--> statement-breakpoint
ALTER TABLE "requests" ADD COLUMN "traceparent" text;