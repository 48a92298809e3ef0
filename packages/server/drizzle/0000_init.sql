CREATE TABLE "accounts" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"feed_seq" bigint DEFAULT 0 NOT NULL,
	"rate_limits" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "api_tokens" (
	"token_hash" text PRIMARY KEY NOT NULL,
	"account_id" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"revoked_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "events" (
	"account_id" text NOT NULL,
	"id" text NOT NULL,
	"seq" bigserial NOT NULL,
	"type" text NOT NULL,
	"payload" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"dispatched_at" timestamp with time zone,
	CONSTRAINT "events_account_id_id_pk" PRIMARY KEY("account_id","id")
);
--> statement-breakpoint
CREATE TABLE "idempotency_keys" (
	"account_id" text NOT NULL,
	"endpoint" text NOT NULL,
	"key" text NOT NULL,
	"body_hash" text NOT NULL,
	"request_id" uuid NOT NULL,
	"response" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "idempotency_keys_account_id_endpoint_key_pk" PRIMARY KEY("account_id","endpoint","key")
);
--> statement-breakpoint
CREATE TABLE "inventory_levels" (
	"account_id" text NOT NULL,
	"location_id" text NOT NULL,
	"sku" text NOT NULL,
	"as_of" timestamp with time zone NOT NULL,
	"body" jsonb NOT NULL,
	CONSTRAINT "inventory_levels_account_id_location_id_sku_pk" PRIMARY KEY("account_id","location_id","sku")
);
--> statement-breakpoint
CREATE TABLE "orders" (
	"account_id" text NOT NULL,
	"id" text NOT NULL,
	"external_id" text NOT NULL,
	"status" text NOT NULL,
	"source" text NOT NULL,
	"feed_seq" bigint NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	"body" jsonb NOT NULL,
	CONSTRAINT "orders_account_id_id_pk" PRIMARY KEY("account_id","id")
);
--> statement-breakpoint
CREATE TABLE "rate_limit_buckets" (
	"account_id" text NOT NULL,
	"scope" text NOT NULL,
	"second" bigint NOT NULL,
	"count" integer NOT NULL,
	CONSTRAINT "rate_limit_buckets_account_id_scope_second_pk" PRIMARY KEY("account_id","scope","second")
);
--> statement-breakpoint
CREATE TABLE "requests" (
	"account_id" text NOT NULL,
	"id" uuid NOT NULL,
	"seq" bigserial NOT NULL,
	"kind" text NOT NULL,
	"status" text NOT NULL,
	"trace_id" text NOT NULL,
	"idempotency_key" text,
	"params" jsonb,
	"body" jsonb NOT NULL,
	"item_count" integer NOT NULL,
	"accepted_at" timestamp with time zone DEFAULT now() NOT NULL,
	"started_at" timestamp with time zone,
	"completed_at" timestamp with time zone,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
	"lease_owner" text,
	"lease_until" timestamp with time zone,
	"result" jsonb,
	"errors" jsonb,
	"error" jsonb,
	CONSTRAINT "requests_account_id_id_pk" PRIMARY KEY("account_id","id")
);
--> statement-breakpoint
CREATE TABLE "returns" (
	"account_id" text NOT NULL,
	"id" text NOT NULL,
	"external_id" text NOT NULL,
	"order_id" text NOT NULL,
	"status" text NOT NULL,
	"feed_seq" bigint NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	"body" jsonb NOT NULL,
	CONSTRAINT "returns_account_id_id_pk" PRIMARY KEY("account_id","id")
);
--> statement-breakpoint
CREATE TABLE "shipments" (
	"account_id" text NOT NULL,
	"id" text NOT NULL,
	"external_id" text NOT NULL,
	"order_id" text NOT NULL,
	"body" jsonb NOT NULL,
	CONSTRAINT "shipments_account_id_id_pk" PRIMARY KEY("account_id","id")
);
--> statement-breakpoint
CREATE INDEX "api_tokens_account_idx" ON "api_tokens" USING btree ("account_id");--> statement-breakpoint
CREATE INDEX "events_undispatched_idx" ON "events" USING btree ("seq") WHERE dispatched_at is null;--> statement-breakpoint
CREATE INDEX "idempotency_created_idx" ON "idempotency_keys" USING btree ("created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "orders_external_idx" ON "orders" USING btree ("account_id","external_id");--> statement-breakpoint
CREATE UNIQUE INDEX "orders_feed_idx" ON "orders" USING btree ("account_id","feed_seq");--> statement-breakpoint
CREATE UNIQUE INDEX "requests_seq_idx" ON "requests" USING btree ("seq");--> statement-breakpoint
CREATE INDEX "requests_account_seq_idx" ON "requests" USING btree ("account_id","seq");--> statement-breakpoint
CREATE INDEX "requests_queue_idx" ON "requests" USING btree ("seq") WHERE status in ('pending', 'processing');--> statement-breakpoint
CREATE INDEX "requests_accepted_idx" ON "requests" USING btree ("accepted_at");--> statement-breakpoint
CREATE UNIQUE INDEX "returns_external_idx" ON "returns" USING btree ("account_id","external_id");--> statement-breakpoint
CREATE UNIQUE INDEX "returns_feed_idx" ON "returns" USING btree ("account_id","feed_seq");--> statement-breakpoint
CREATE INDEX "returns_order_idx" ON "returns" USING btree ("account_id","order_id");--> statement-breakpoint
CREATE UNIQUE INDEX "shipments_external_idx" ON "shipments" USING btree ("account_id","external_id");