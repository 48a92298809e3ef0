ALTER TABLE "events" ADD COLUMN "feed_seq" bigint;--> statement-breakpoint
-- Events written before this migration: positions after everything their account handed out so
-- far, in insertion order, taken from accounts.feed_seq as every later one is, so they never
-- collide with new ones. webhook.test events stay out of the feed (no position).
WITH "numbered" AS (
  SELECT "account_id", "id", row_number() OVER (PARTITION BY "account_id" ORDER BY "seq") AS "n"
    FROM "events" WHERE "type" <> 'webhook.test'
), "bumped" AS (
  UPDATE "accounts" SET "feed_seq" = "accounts"."feed_seq" + "c"."count"
    FROM (SELECT "account_id", count(*) AS "count" FROM "numbered" GROUP BY "account_id") AS "c"
   WHERE "accounts"."id" = "c"."account_id"
  RETURNING "accounts"."id", "accounts"."feed_seq" - "c"."count" AS "base"
)
UPDATE "events" SET "feed_seq" = "bumped"."base" + "numbered"."n"
  FROM "numbered" JOIN "bumped" ON "bumped"."id" = "numbered"."account_id"
 WHERE "events"."account_id" = "numbered"."account_id" AND "events"."id" = "numbered"."id";--> statement-breakpoint
CREATE UNIQUE INDEX "events_feed_idx" ON "events" USING btree ("account_id","feed_seq");
