// Every LISTEN/NOTIFY channel the server uses, named once: a statement's `pg_notify`, a
// `Database.notify` and the `listen` that waits for it must agree on the name, and a typo on one
// side fails silently (nobody wakes; the poll catches up later). Names are lowercase, as
// `Database.listen` requires (client.ts: PGlite case-folds LISTEN).

/** Workers (worker/worker.ts): an account has due work. Payload: the releasing worker's id, or ''. */
export const REQUESTS_CHANNEL = "oisr_requests";

/** Webhook dispatchers (webhooks/dispatcher.ts): outbox events or attempts to send. Payload: the account id. */
export const EVENTS_CHANNEL = "oisr_events";

/**
 * Webhook dispatchers: a receiver asked to slow down (webhooks/sql/attempts.ts record(), at
 * commit). Payload: webhooks/sql/pauses.ts `pauseNotice`, the subscription and when its pause ends.
 */
export const WEBHOOK_PAUSES_CHANNEL = "oisr_webhook_pauses";
