-- Two indexes of `requests` that no statement reads: `requests_seq_idx` (seq alone: every statement
-- on an account's sequence also names the account, and reads `requests_open_idx` or
-- `requests_account_seq_idx`) and `requests_accepted_idx` (accepted_at alone: retention drops whole
-- partitions since decision 020; the list's time bounds filter the walk down the account's sequence
-- index, the bulk retry reads `requests_retryable_idx`). Every write of a request row is a new
-- row version with an entry in each index (the status changes, and `status` is in two partial
-- indexes' predicates, so no update is HOT): accept, start and finish wrote 14 index entries per
-- request, 6 of them into these two. The planner could also walk `requests_seq_idx` for an
-- account's open requests (seq > $n, filtering out every other account's), as docs/scaling.md's
-- plan of the stage statement shows.
DROP INDEX IF EXISTS "requests_seq_idx";--> statement-breakpoint
DROP INDEX IF EXISTS "requests_accepted_idx";
