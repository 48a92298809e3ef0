-- Two indexes of `webhook_deliveries` that no statement reads any more:
-- `webhook_deliveries_event_idx` (account_id, event_id) served the row-by-row retention that
-- deleted an event's attempts with it (decision 004); since decision 020 retention drops whole
-- partitions, and every statement that names an event also names its subscription
-- (`webhook_deliveries_attempt_idx`) or reads the pending attempts' lowest event id
-- (`webhook_deliveries_pending_event_idx`). `webhook_deliveries_due_idx` (next_attempt_at, pending)
-- served the claim when it took the oldest due attempts of every subscription at once; since
-- decision 024 the claim probes each subscription's own pending attempts
-- (`webhook_deliveries_pending_idx`, `webhook_deliveries_leased_idx`, migration 0016), and the
-- webhook-lag gauge reads `webhook_deliveries_pending_event_idx` (migration 0010). An attempt that
-- succeeds is written three times (fan-out's insert, the claim's lease, the outcome), none of them
-- HOT (the lease and the status are in partial indexes' keys and predicates), so each wrote an
-- entry in every index whose predicate the new version meets: 8 + 9 + 4 = 21 entries, 5 of them
-- into these two.
DROP INDEX IF EXISTS "webhook_deliveries_event_idx";--> statement-breakpoint
DROP INDEX IF EXISTS "webhook_deliveries_due_idx";
