// The webhook tables' one owner: every statement that writes `webhook_subscriptions`,
// `webhook_deliveries` or `webhook_recoveries` lives in this folder (issue 25; ownership.test.ts
// fails on a writer elsewhere). Routes, the dispatcher and /metrics import from here. Old attempts
// are not deleted here: the table is partitioned by created_at, the time of the attempt's id, and
// retention drops whole partitions (partitions/retention.ts, decision 020).
//
// A delivery is one row per attempt. Its life:
//
//   newRound ─▶ pending ──claim──▶ pending, leased ──record──▶ succeeded
//   (fan-out,     ▲  (due,             │     │                 failed ──schedule left──▶ pending (attempt + 1,
//    test,        │   unleased)        │     │                   │                        same round: nextAttemptOf)
//    retry,       │                    │     │                   └──spent, 410, disabled──▶ next_attempt_at null
//    recover)     │                    │     └──lease ran out (dispatcher died): claimable again, made again
//                 └──────release───────┘  (shutdown: due now; the receiver paused the subscription: due when
//                                          the pause ends, not sent — pauses.ts)
//   pending, unleased ──subscription disabled (PATCH, 410, failing streak)──▶ deleted
//   pending, unleased ──subscription paused (429/503 Retry-After)──▶ due when the pause ends
//   pending, its event dropped by retention ──claim──▶ failed (EVENT_GONE_ERROR, claim.ts)
//   any ──its partition past retention (partitions/retention.ts)──▶ dropped
//   any, with its subscription ──DELETE──▶ deleted
//
// A round is one sending of an event to a subscription (rounds.ts): fan-out and test take round 0,
// a manual retry or a recovery the next one. newRound() alone decides a round's trigger, number,
// first attempt and due time; nextAttemptOf() the attempts after it.
//
// Statements, one owner each:
//   rounds.ts         newRound, nextAttemptOf, lockSubscription (the row lock rounds are numbered under)
//   fan-out.ts        fanOut: outbox events → round 0 for every enabled subscription listing their type
//   claim.ts          the claim (per-subscription probes, advisory lock per subscription, lease,
//                     SKIP LOCKED) and when the next attempt is due: cost independent of backlog and history
//   attempts.ts       the dispatcher's queue: claim, record, release, nextDueInMs
//   succeeded.ts      several successful attempts recorded in one transaction (the dispatcher batches them)
//   pauses.ts         the Retry-After pause notice every dispatcher hears (WEBHOOK_PAUSES_CHANNEL)
//   subscriptions.ts  CRUD, secret rotation, the test event, dropPendingDeliveries
//   resend.ts         POST …/deliveries/{id}/retry
//   recoveries.ts     POST …/recover and the dispatcher's recovery steps
//   history.ts        GET …/deliveries and the webhook-lag gauge (reads only)
//   retention.ts      recoveries past the retention period
//
// Lock order, for every transaction that writes attempts after reading a subscription's state:
//   1. the subscription row (lockSubscription, or record()'s SELECT … FOR UPDATE): PATCH, DELETE,
//      record, retry and each recovery step take it first;
//   2. then the attempts (the one being recorded, the ones dropped or held back, the new round).
// Fan-out writes attempts without locking subscriptions (its `events` rows are locked SKIP LOCKED
// by outbox/), and the claim takes a try-lock (advisory, per subscription, among claims only) and
// locks attempts SKIP LOCKED: neither ever waits on the others.
export {
  type AttemptResult,
  type ClaimedDelivery,
  createDeliveryStore,
  type DeliveryStore,
  type RecordOutcome,
  type RecordPolicy,
} from "./attempts.ts";
export { fanOut } from "./fan-out.ts";
export { createDeliveryHistory, type DeliveryHistory, readWebhookLag, type WebhookLag } from "./history.ts";
export { PausedSubscriptions, type PauseNotice, pauseNotice } from "./pauses.ts";
export { runRecoveryStep } from "./recoveries.ts";
export { pruneRecoveries } from "./retention.ts";
export { newRound } from "./rounds.ts";
export {
  createSubscriptionStore,
  type DeliveryRow,
  type SubscriptionRow,
  type SubscriptionStore,
} from "./subscriptions.ts";
export type { Succeeded } from "./succeeded.ts";
