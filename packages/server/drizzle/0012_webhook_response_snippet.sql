-- What a delivery attempt keeps of the receiver's answer, for GET …/deliveries: its Content-Type
-- (at most 200 characters) and the first 1,024 bytes of its body as UTF-8 text (@oisr/contract's
-- responseSnippet). Null for attempts made before, pending ones and ones that got no answer.
ALTER TABLE "webhook_deliveries" ADD COLUMN "response_content_type" text;--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD COLUMN "response_body" text;