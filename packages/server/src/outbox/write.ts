// The `request.succeeded|failed|dead` events: one per request, written by the queue (queue/
// transitions.ts) in the transaction that sets the request's final status, so a request that is
// retried writes nothing until then and a rolled-back attempt leaves no event. The body is
// @oisr/contract's `requestEvent`, the mock's too, from the record GET /requests/{id} answers.
//
// Two statements per stage whatever its size (a stage holds up to 1,000 requests): `reserve`, the
// account's feed positions, then `insert`, every event in one statement from one JSON parameter.
import { type FinalRequestRecord, type RequestEventType, requestEvent } from "@oisr/contract";
import { sql } from "drizzle-orm";
import { EVENTS_CHANNEL } from "../db/channels.ts";
import type { Database, Tx } from "../db/client.ts";
import { eventTraceparent } from "../telemetry/traceparent.ts";
import { newId } from "./ids.ts";

/** Feed positions taken for a stage's request events, and who wants them delivered. */
export interface RequestEventSlots {
  /** The position before the first event's. */
  after: number;
  /** Request event types an enabled subscription of the account lists. */
  subscribed: ReadonlySet<string>;
}

/**
 * Takes `count` positions of the account's feed (GET /events), as store/changes.ts does: bumping
 * `accounts.feed_seq` locks the account row, which orders the account's commits, so positions are
 * handed out in commit order and a poller never skips an event that commits later.
 *
 * Call it before anything else the transaction locks on the queue (request_queues, requests): a
 * transaction that settles a dead request (settleFailed) takes the account row first too, and two
 * transactions taking the two rows in opposite orders could deadlock (a pipelined stage failing
 * while the stage before it commits).
 *
 * It also reads which request event types the account's enabled subscriptions list. Request events
 * are opt-in, and most accounts may never subscribe to them; an event nobody subscribes to is
 * written as already fanned out, so the dispatcher (fan-out.ts) never reads it. Every event of a
 * busy queue would otherwise cost a fan-out pass for nothing. A subscription that commits while
 * this transaction runs misses the events of this stage, as it would have if it had committed a
 * moment later; `recover` re-sends them.
 */
export async function reserveRequestEvents(
  database: Database,
  tx: Tx,
  accountId: string,
  count: number,
): Promise<RequestEventSlots> {
  const [row] = await database.rows<{ feed_seq: string | number; subscribed: string[] }>(
    sql`update accounts set feed_seq = feed_seq + ${count} where id = ${accountId}
        returning feed_seq, array(
          select distinct t from webhook_subscriptions s, unnest(s.events) as t
           where s.account_id = ${accountId} and s.status = 'enabled' and t like 'request.%') as subscribed`,
    tx,
  );
  if (!row) throw new Error(`account ${accountId} vanished`);
  return { after: Number(row.feed_seq) - count, subscribed: new Set(row.subscribed) };
}

/**
 * Writes one event per record, in the order given, at the positions `reserve` took. When one of
 * them awaits fan-out, the dispatcher is woken at commit (`pg_notify` in the statement).
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
