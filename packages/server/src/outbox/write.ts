// Every insert into `events`, each inside the caller's transaction so the event commits with the
// change it reports (or not at all). Three writers, one statement each whatever the count:
// - return events, from an applied stage (store/changes.ts), at positions taken with the changes;
// - `request.succeeded|failed|dead`, one per request, from the queue (queue/transitions.ts) in the
//   transaction that sets the request's final status, so a retried request writes nothing until
//   then and a rolled-back attempt leaves no event. The body is @oisr/contract's `requestEvent`,
//   the mock's too, from the record GET /requests/{id} answers;
// - `webhook.test` (webhooks/sql/subscriptions.ts): no feed position, stored already fanned out.
// Rows travel as one JSON parameter, so each statement has one fixed text, prepared once.
import {
  type FinalRequestRecord,
  type RequestEventType,
  requestEvent,
  webhookEventBody,
} from "@oisr/contract";
import { sql } from "drizzle-orm";
import { EVENTS_CHANNEL } from "../db/channels.ts";
import type { Database, Tx } from "../db/client.ts";
import { events } from "../db/schema.ts";
import { newId } from "../store/ids.ts";
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

/**
 * Writes a stage's return events at the positions after `after` (positions.ts takeFeedPositions),
 * in the order given, awaiting fan-out. The caller wakes the dispatcher after commit.
 */
export async function insertOutboxEvents(
  tx: Tx,
  accountId: string,
  after: number,
  outbox: OutboxEvent[],
  now: string,
): Promise<void> {
  if (outbox.length === 0) return;
  // The payload is the webhook body and the GET /events object alike: one shape, stored once.
  const rows = outbox.map((e) => {
    const id = newId("evt");
    return {
      id,
      type: e.type,
      payload: webhookEventBody(id, e.type, now, e.apiKeyId, e.object),
      traceparent: e.traceparent ?? null,
    };
  });
  await tx.execute(sql`
      insert into events (account_id, id, feed_seq, type, created_at, payload, traceparent)
      select ${accountId}, e.body->>'id', ${after}::bigint + e.n, e.body->>'type', ${now}::timestamptz,
             e.body->'payload', e.body->>'traceparent'
        from jsonb_array_elements(${JSON.stringify(rows)}::jsonb) with ordinality as e(body, n) order by e.n`);
}

/**
 * Writes one request event per record, in the order given, at the positions `reserveRequestEvents`
 * took. An event no enabled subscription lists is stored as already fanned out. When one of them
 * awaits fan-out, the dispatcher is woken at commit (`pg_notify` in the statement).
 *
 * `traceparent`: the span the events continue, when tracing is on (fan-out and delivery spans link
 * to it): the stage's for requests it applied, the accepting call's for a dead request.
 */
export async function insertRequestEvents(
  database: Database,
  tx: Tx,
  accountId: string,
  slots: RequestEventSlots,
  records: { record: FinalRequestRecord; traceparent?: string | null }[],
): Promise<void> {
  if (records.length === 0) return;
  const rows = records.map(({ record, traceparent }) => {
    const payload = requestEvent(newId("evt"), record);
    return {
      payload,
      // With tracing off, the request's own trace id, so the delivery carries it (issue 18).
      traceparent: eventTraceparent(traceparent, record.trace_id),
      pending: slots.subscribed.has(payload.type satisfies RequestEventType),
    };
  });
  await database.rows(
    sql`with inserted as (
          insert into events (account_id, id, feed_seq, type, created_at, payload, traceparent, dispatched_at)
          select ${accountId}, e.body->'payload'->>'id', ${slots.after}::bigint + e.n, e.body->'payload'->>'type',
                 (e.body->'payload'->>'created_at')::timestamptz, e.body->'payload', e.body->>'traceparent',
                 case when (e.body->>'pending')::boolean then null else now() end
            from jsonb_array_elements(${JSON.stringify(rows)}::jsonb) with ordinality as e(body, n)
           order by e.n
          returning dispatched_at is null as pending)
        select pg_notify(${EVENTS_CHANNEL}, ${accountId}) from inserted where pending limit 1`,
    tx,
  );
}

/**
 * Writes a `webhook.test` event: no feed position (GET /events never lists it) and already
 * dispatched, so fan-out skips it; the caller inserts its one attempt in the same transaction.
 */
export async function insertTestEvent(
  tx: Tx,
  event: Pick<
    typeof events.$inferInsert,
    "accountId" | "id" | "type" | "payload" | "createdAt" | "traceparent"
  >,
): Promise<void> {
  await tx.insert(events).values({ ...event, dispatchedAt: event.createdAt });
}
