// The outbox: every statement that writes the `events` table lives in this folder (issue 25; a test,
// ownership.test.ts, fails on a writer elsewhere). An event is written in the same transaction as
// the change it reports, so it exists exactly when the change committed; webhooks and GET /events
// both read it from here, later.
//
//   written, dispatched_at null ──fan-out──▶ dispatched (attempts made) ──retention──▶ dropped
//   written dispatched (a test event, or a request event no subscription lists) ──────▶ dropped
//   (a partition still holding an event not fanned out is kept until a dispatcher reaches it)
//
// Statements, one owner each:
//   positions.ts      takeFeedPositions, reserveRequestEvents: bump accounts.feed_seq (row lock);
//                     an applied stage takes all its positions (changes, return and request
//                     events) with one reserveRequestEvents (worker/apply.ts)
//   write.ts          insertEvents, the one insert (+ pg_notify at commit when a row awaits
//                     fan-out); its writers build the rows: insertOutboxEvents (return events),
//                     insertRequestEvents, insertTestEvent (no feed position, born dispatched)
//   fan-out-claim.ts  claimUndispatched (FOR UPDATE SKIP LOCKED), markDispatched
//   feed.ts           GET /events reads (feed, get) and the served body
// Old events are not deleted here: `events` is partitioned by created_at (the time of the event's
// id) and retention drops whole partitions, with the same range of `webhook_deliveries`
// (partitions/retention.ts, decision 020).
//
// Lock order, for every transaction that writes events (stated here only; comments elsewhere
// point here):
//   1. apply only: the stage's own `requests` rows (queue/lock-members.ts), which no other
//      transaction settles while this worker holds the account's lease;
//   2. the account row, `accounts.feed_seq`, bumped to take feed positions (positions.ts). It
//      orders the account's commits, so positions are handed out in commit order;
//   3. the resources the stage writes (store/changes.ts);
//   4. the account's `request_queues` row (the lease fence), then the `requests` being finished
//      or settled (queue/transitions.ts finishStage, settleFailed);
//   5. the events inserted: new rows, which no other transaction can wait for (fan-out skips
//      uncommitted rows), so their place in the order is free; request events come last because
//      their bodies need the records step 4 returns.
// Accepting a call (queue/transitions.ts insertPending) takes only step 4's queue rows, of several
// accounts in account order, and never the account row: it cannot close a cycle with a stage.
// A transaction that took 4 before 2 could deadlock with one taking them the other way round (a
// pipelined stage failing while the stage before it commits), so 2 comes first even in
// settleFailed, which writes events only when a request dies.
// Fan-out never takes the account row: they lock `events` rows with SKIP LOCKED (never
// waiting on one another), then write `webhook_deliveries` in the same statement or transaction.
export { claimUndispatched, markDispatched, type PickedEvent } from "./fan-out-claim.ts";
export { createEventStore, type EventStore, servedEventBody } from "./feed.ts";
export {
  positionBefore,
  type RequestEventSlots,
  reserveRequestEvents,
  takeFeedPositions,
} from "./positions.ts";
export {
  type EventRow,
  insertEvents,
  insertOutboxEvents,
  insertRequestEvents,
  insertTestEvent,
  type OutboxEvent,
} from "./write.ts";
