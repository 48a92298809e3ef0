// The one insert into `events` (insertEvents), inside the caller's transaction so the event
// commits with the change it reports (or not at all). Its three writers build their rows here and
// hand them to it, one statement whatever the count:
// - return events, from an applied stage (store/changes.ts), at positions taken with the changes;
// - `request.succeeded|failed|dead`, one per request, from the queue (queue/transitions.ts) in the
//   transaction that sets the request's final status, so a retried request writes nothing until
//   then and a rolled-back attempt leaves no event. The body is @oisr/contract's `requestEvent`,
//   the mock's too, from the record GET /requests/{id} answers;
// - `webhook.test` (webhooks/sql/subscriptions.ts): no feed position, stored already fanned out.
// `events` is partitioned on created_at (decision 020), which is always the time of the event's id:
// each writer makes the id at the time it puts in the body (newIdAt), and this insert sets the
// column from the id (oisr_ulid_time), so GET /events/{id} and every lookup by id find the one
// partition to read from the id alone.
// Rows travel as one JSON parameter, so the statement has one fixed text, prepared once; when a row
// awaits fan-out the same statement wakes the dispatchers at commit (pg_notify), so no writer has
// to remember to.
import {
  type FinalRequestRecord,
  type RequestEventType,
  requestEvent,
  webhookEventBody,
} from "@oisr/contract";
import { sql } from "drizzle-orm";
import { EVENTS_CHANNEL } from "../db/channels.ts";
import type { Tx } from "../db/client.ts";
import { preparedRows } from "../db/prepared.ts";
import type { events } from "../db/schema.ts";
import { newIdAt } from "../store/ids.ts";
import { eventTraceparent } from "../telemetry/traceparent.ts";
import type { RequestEventSlots } from "./positions.ts";

export interface OutboxEvent {
  type: string;
  object: unknown;
  /**
   * The trace its deliveries continue (telemetry/traceparent.ts eventTraceparent): the writing
   * stage's span with tracing on, else the trace id of the request that caused it.
   */
  traceparent?: string | null;
  /** The API key of the request whose apply caused it. */
  apiKeyId: string | null;
}

/** One row of `events`, as every writer hands it to insertEvents. */
export interface EventRow {
  id: string;
  type: string;
  /** Position in the account's GET /events feed (positions.ts); null: never listed (`webhook.test`). */
  feedSeq: number | null;
  /** The webhook body, which GET /events serves too (feed.ts). */
  payload: unknown;
  traceparent: string | null;
  /** Awaits fan-out; false: stored already fanned out (nobody subscribes, or its attempt is made by the caller). */
  pending: boolean;
}

/**
 * The one insert into `events`: the rows in the order given (the global `seq` the fan-out claims
 * by follows it). Wakes the dispatchers at commit when a row awaits fan-out.
 */
export async function insertEvents(tx: Tx, accountId: string, rows: EventRow[]): Promise<void> {
  if (rows.length === 0) return;
  await preparedRows(
    tx,
    sql`with inserted as (
          insert into events (account_id, id, feed_seq, type, created_at, payload, traceparent, dispatched_at)
          select ${accountId}, e.body->>'id', (e.body->>'feedSeq')::bigint, e.body->>'type',
                 oisr_ulid_time(e.body->>'id'), e.body->'payload', e.body->>'traceparent',
                 case when (e.body->>'pending')::boolean then null else now() end
            from jsonb_array_elements(${JSON.stringify(rows)}::jsonb) with ordinality as e(body, n)
           order by e.n
          returning dispatched_at is null as pending)
        select pg_notify(${EVENTS_CHANNEL}, ${accountId}) from inserted where pending limit 1`,
  );
}

/**
 * Writes a stage's return events at the positions after `after` (positions.ts), in the order
 * given, awaiting fan-out.
 */
export async function insertOutboxEvents(
  tx: Tx,
  accountId: string,
  after: number,
  outbox: OutboxEvent[],
  now: string,
): Promise<void> {
  // The payload is the webhook body and the GET /events object alike: one shape, stored once.
  const rows = outbox.map((e, i): EventRow => {
    const id = newIdAt("evt", now);
    return {
      id,
      type: e.type,
      feedSeq: after + i + 1,
      payload: webhookEventBody(id, e.type, now, e.apiKeyId, e.object),
      traceparent: e.traceparent ?? null,
      pending: true,
    };
  });
  await insertEvents(tx, accountId, rows);
}

/**
 * Writes one request event per record, in the order given, at the positions reserved for them
 * (positions.ts). An event no enabled subscription lists is stored as already fanned out.
 *
 * `traceparent`: the span the events continue, when tracing is on (fan-out and delivery spans link
 * to it): the stage's for requests it applied, the accepting call's for a dead request.
 */
export async function insertRequestEvents(
  tx: Tx,
  accountId: string,
  slots: RequestEventSlots,
  records: { record: FinalRequestRecord; traceparent?: string | null }[],
  /** A turn of the event loop between building the rows and the insert (their JSON): see finishStage. */
  turn?: () => Promise<void>,
): Promise<void> {
  const rows = records.map(({ record, traceparent }, i): EventRow => {
    // At the time the event's body gives (the request's completed_at), to the millisecond.
    const payload = requestEvent(newIdAt("evt", record.completed_at), record);
    return {
      id: payload.id,
      type: payload.type,
      feedSeq: slots.after + i + 1,
      payload,
      // With tracing off, the request's own trace id, so the delivery carries it (issue 18).
      traceparent: eventTraceparent(traceparent, record.trace_id),
      pending: slots.subscribed.has(payload.type satisfies RequestEventType),
    };
  });
  await turn?.();
  await insertEvents(tx, accountId, rows);
}

/**
 * Writes a `webhook.test` event: no feed position (GET /events never lists it) and already
 * fanned out, so fan-out skips it; the caller inserts its one attempt in the same transaction.
 * Its id must carry its time (newIdAt), like every event's.
 */
export async function insertTestEvent(
  tx: Tx,
  event: Pick<typeof events.$inferInsert, "accountId" | "id" | "type" | "payload" | "traceparent">,
): Promise<void> {
  await insertEvents(tx, event.accountId, [
    {
      id: event.id,
      type: event.type,
      feedSeq: null,
      payload: event.payload,
      traceparent: event.traceparent ?? null,
      pending: false,
    },
  ]);
}
