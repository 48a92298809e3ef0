// Every statement that writes a request's status, and with it the account's open count
// (request_queues.open_count), in the same statement or transaction:
//   accepted → pending (insertPending) → processing (startStage) → succeeded | failed (finishStage)
//   processing → processing, later (settleFailed: a retry) | dead (settleFailed: attempts used up)
//   processing → pending (unstart: a stage that never ran because the one before it rolled back)
// Statements that act for a worker are fenced on its lease of the account (request_queues.lease_owner):
// a worker whose lease another worker has taken changes nothing.
// The statements that set a final status also write each request's `request.<status>` event
// (outbox/write.ts), in the same transaction: exactly one per request, none for an attempt
// that rolled back.
import type { StoredRequest } from "@oisr/contract";
import { sql } from "drizzle-orm";
import { REQUESTS_CHANNEL } from "../db/channels.ts";
import type { Database, Executor, Tx } from "../db/client.ts";
import { insertRequestEvents, type RequestEventSlots, reserveRequestEvents } from "../outbox/index.ts";
import {
  completionTime,
  finalRecord,
  finalRecordOf,
  RECORD_COLUMNS,
  type RecordRow,
} from "./final-record.ts";
import { SHORT_QUEUE } from "./leases.ts";
import { isOpen, millis, storedBody } from "./sql.ts";
import type { RequestKind } from "./statuses.ts";
import type { StoredCall } from "./stored-call.ts";

/** The first open request as a stage start saw it, started or not. */
export interface QueuedRequest {
  id: string;
  seq: number;
  kind: RequestKind;
  traceId: string;
  /** The API key that submitted it (null before API keys): the events its apply writes carry it. */
  apiKeyId: string | null;
  itemCount: number;
  /** Including the one just started. */
  attempts: number;
  /** The accept call's span, when tracing was on (telemetry/queue-spans.ts). */
  traceparent?: string | null;
  /** Milliseconds from acceptance to the first start. */
  queueWaitMs?: number | null;
}

/** A request a stage started: its attempt is counted (and durable) before anything is applied. */
export interface StartedRequest extends QueuedRequest {
  /**
   * The record's columns that no later step of the stage changes, as startStage read them, so
   * finishStage knows each final record without reading it back (PostgreSQL timestamp text).
   */
  idempotencyKey: string | null;
  acceptedAt: string;
  startedAt: string;
  /**
   * The stored call, read by startStage: the apply transaction knows what the stage references
   * before it sends its first statement, so it reads that state in the same round trip as the lock
   * (worker/apply.ts). Bodies never change once stored.
   */
  call: StoredCall;
}

export type StageStart =
  /** Nothing open after the given position, or the lease is gone. */
  | { kind: "none" }
  /** The first open request cannot start now: its retry is not due, or (pipelined) it was attempted before. */
  | { kind: "waiting" }
  /** The first open request has used every attempt (a worker died in its last one): bury it. */
  | { kind: "exhausted"; request: QueuedRequest }
  | {
      kind: "started";
      members: StartedRequest[];
      /** Another account with short work (leases.ts SHORT_QUEUE) is due as this stage starts: the worker yields sooner. */
      othersDue: boolean;
      /**
       * Whether an open request was seen after the stage (or the candidates filled the limit, so
       * there may be one). False: the worker hands the account back after this stage instead of
       * asking again, which with one-order calls found nothing half the time (session 16: one
       * statement of 0.6 ms of PostgreSQL CPU and a dead queue row per call). A request accepted
       * meanwhile leaves the account due, and the release wakes a worker (leases.ts).
       */
      moreAfter: boolean;
    };

export interface StageLimits {
  /** Requests in one stage at most. */
  maxRequests: number;
  /** Items in one stage at most (the first request goes whatever its size). */
  maxItems: number;
}

/** A started request's outcome (finishStage finds the rows by the range of their `seq`). */
export type Outcome = { request: StartedRequest } & (
  | { status: "succeeded"; result: unknown }
  | { status: "failed"; errors: unknown[] }
);

export class LeaseLost extends Error {
  /** `detail` says which fenced statement found what, so a lease_lost rollback in the logs can be told apart. */
  readonly detail: string;
  constructor(detail: string) {
    super(`the worker's lease on the account was taken over (${detail})`);
    this.detail = detail;
  }
}

/**
 * Inserts accepted requests as `pending` and counts them into their accounts' queues in one
 * statement. An account that had nothing open becomes due now, and only then are the workers
 * woken (NOTIFY, sent at commit): an account a worker already holds is read by its pipeline.
 * Accounts are locked in one order, so concurrent batches cannot deadlock on them.
 */
export async function insertPending(
  database: Database,
  rowsJson: string,
  executor?: Executor,
): Promise<void> {
  await database.rows(
    sql`with inserted as (
            insert into requests (account_id, id, kind, status, trace_id, traceparent, idempotency_key, api_key_id, params, body, item_count)
            select x.a, x.i, x.k, 'pending', x.t, x.tp, x.ik, x.ak, x.p, x.b, x.n from json_to_recordset(${rowsJson}::json)
              as x(a text, i uuid, k text, t text, tp text, ik text, ak text, p jsonb, b json, n int)
            returning account_id),
          queued as (
            insert into request_queues as q (account_id, open_count, due_at)
            select account_id, count(*), now() from inserted group by account_id order by account_id
            on conflict (account_id) do update
               set open_count = q.open_count + excluded.open_count, due_at = coalesce(q.due_at, excluded.due_at)
            returning q.due_at = now() as woke)
          select pg_notify(${REQUESTS_CHANNEL}, '') from queued where woke limit 1`,
    executor,
  );
}

export function createTransitions(database: Database, workerId: string, leaseMs: number) {
  const lease = millis(leaseMs);
  return {
    /**
     * Starts the next stage of an account this worker holds: the first open request after
     * `afterSeq` and, when it is on its first attempt, the never-attempted requests right behind
     * it, within `limits`. Marks them `processing` and counts their attempt in its own statement,
     * committed before they are applied, so a worker that dies applying them has used that attempt
     * (a poison request cannot crash workers forever). Extends the lease. Nothing is locked: the
     * apply transaction locks the members (`lockMembers`).
     */
    async startStage(
      accountId: string,
      afterSeq: number,
      options: { first: boolean; group: boolean; maxAttempts: number; limits: StageLimits },
    ): Promise<StageStart> {
      const { limits } = options;
      const rows = await database.rows<{
        id: string;
        seq: string | number;
        kind: RequestKind;
        trace_id: string;
        api_key_id: string | null;
        traceparent: string | null;
        wait_ms: number | string | null;
        item_count: number;
        attempts: number;
        params: Record<string, string> | null;
        body: unknown;
        idempotency_key: string | null;
        accepted_at: string | null;
        started_at: string | null;
        due: boolean;
        started: boolean;
        leased: boolean;
        others_due: boolean;
        seen: number | string;
      }>(
        sql`with fence as (
              update request_queues set lease_until = now() + ${lease}, due_at = now() + ${lease}
               where account_id = ${accountId} and lease_owner = ${workerId}
              returning account_id),
            -- One probe of request_queues_due_idx: whether another account with short work waits
            -- for a worker. Long work waiting is not asked: smaller stages do not serve it, a turn
            -- does, and it gets one when a lease's budget is spent (worker.ts SHORT_LANE).
            others as (
              select exists (select 1 from request_queues where due_at <= now() and open_count <= ${SHORT_QUEUE}
                                and account_id <> ${accountId}) as due),
            -- A request never attempted is due whatever its next_attempt_at says: that is its
            -- accept's now(), which can be later than this statement's now() when the accept
            -- committed while this statement was being planned (two API processes under load).
            candidates as (
              select id, seq, kind, trace_id, item_count, attempts, attempts = 0 or next_attempt_at <= now() as due
                from requests
               where account_id = ${accountId} and ${isOpen} and seq > ${afterSeq}
               order by seq
               limit ${limits.maxRequests}),
            ranked as (
              select c.*, row_number() over w as n, sum(item_count) over w as items,
                     bool_and(attempts = 0) over w as fresh
                from candidates c
              window w as (order by seq)),
            -- The requests behind the head join it only when the head starts: a run that started
            -- them without it would leave them processing in no stage, to be started again later
            -- with a second attempt (the scale test saw attempts 2 with nothing rolled back).
            head as (
              select 1 from ranked
               where n = 1 and due and attempts < ${options.maxAttempts} and (${options.first} or attempts = 0)),
            run as (
              select id from ranked
               where exists (select 1 from fence) and exists (select 1 from head)
                 and (n = 1 or (${options.group} and fresh and items <= ${limits.maxItems}))),
            started as (
              update requests r set status = 'processing', attempts = r.attempts + 1,
                     started_at = coalesce(r.started_at, greatest(clock_timestamp(), r.accepted_at))
                from run where r.account_id = ${accountId} and r.id = run.id
              returning r.id, r.seq, r.kind, r.trace_id, r.api_key_id, r.traceparent,
                        extract(epoch from r.started_at - r.accepted_at) * 1000 as wait_ms, r.item_count, r.attempts,
                        r.params, ${storedBody} as body, r.idempotency_key, r.accepted_at, r.started_at)
            -- The started requests, then the first candidate as it was (started or not), to say why
            -- nothing started. No join between them: a stage can hold 1,000 requests.
            select id, seq, kind, trace_id, api_key_id, traceparent, wait_ms, item_count, attempts, params, body,
                   idempotency_key, accepted_at, started_at, true as due, true as started, true as leased, (select due from others) as others_due,
                   0 as seen
              from started
            union all
            select id, seq, kind, trace_id, null, null, null, item_count, attempts, null, null,
                   null, null, null, due, false, exists (select 1 from fence), (select due from others), (select count(*) from ranked)
              from ranked where n = 1`,
      );
      const toRequest = (r: (typeof rows)[number]): QueuedRequest => ({
        id: r.id,
        seq: Number(r.seq),
        kind: r.kind,
        traceId: r.trace_id,
        apiKeyId: r.api_key_id,
        traceparent: r.traceparent,
        queueWaitMs: r.wait_ms === null ? null : Number(r.wait_ms),
        itemCount: r.item_count,
        attempts: r.attempts,
      });
      const members = rows
        .filter((r) => r.started)
        // kind, params and body as accept.ts stored them together (stored-call.ts).
        .map(
          (r): StartedRequest => ({
            ...toRequest(r),
            idempotencyKey: r.idempotency_key,
            acceptedAt: r.accepted_at as string,
            startedAt: r.started_at as string,
            call: { id: r.id, kind: r.kind, params: r.params, body: r.body } as StoredCall,
          }),
        )
        .sort((a, b) => a.seq - b.seq);
      const first = rows.find((r) => !r.started);
      if (!first?.leased) return { kind: "none" };
      if (members[0]?.id === first.id) {
        const seen = Number(first.seen);
        const moreAfter = seen > members.length || seen >= limits.maxRequests;
        return { kind: "started", members, othersDue: first.others_due, moreAfter };
      }
      const head = toRequest(first);
      if (options.first && first.due && head.attempts >= options.maxAttempts)
        return { kind: "exhausted", request: head };
      return { kind: "waiting" };
    },

    /**
     * Records the outcome of every request of an apply transaction, as its last statements, takes
     * them out of the account's open count, and writes each one's `request.succeeded|failed` event.
     * Fenced: if another worker has taken the account over, nothing is recorded and the transaction
     * must roll back (`LeaseLost`).
     *
     * `appliedAt` is the time stamped on the resources the stage wrote: `completed_at` is never
     * earlier (completionTime). `traceparent` is the stage's span (tracing on only), kept with the
     * events as with the stage's return events.
     *
     * Every column of the final records is known here (startStage read the ones no stage changes,
     * the outcome and completed_at are set by this update), so the events are built without reading
     * the records back, and their insert goes out right behind the update instead of a round trip
     * after it: one round trip less per stage, and no 1,000 records to parse per big stage.
     */
    async finishStage(
      tx: Tx,
      accountId: string,
      outcomes: Outcome[],
      appliedAt: string,
      traceparent: string | null = null,
      /**
       * Positions the caller took for these requests' events with its own (one statement on the
       * account row), or is taking: a promise of them when that statement was sent and not yet
       * answered, so this one's update goes out behind it in the same round trip.
       */
      reserved?: RequestEventSlots | Promise<RequestEventSlots>,
      /**
       * A turn of the event loop, given between building the records and their events, and again
       * before the events' insert: for a 1,000-request stage each is a stretch of 2-11 ms of
       * JavaScript on a quiet 2-core machine (decision 017, session 15). None by default.
       */
      turn?: () => Promise<void>,
    ): Promise<void> {
      // The account row first (the feed positions), then the queue's rows: lock order, outbox/index.ts.
      const slots = Promise.resolve(
        reserved ?? reserveRequestEvents(database, tx, accountId, outcomes.length),
      );
      // Awaited after the update is sent: if the update fails first, the transaction fails either way.
      slots.catch(() => {});
      const completedAt = completionTime(
        appliedAt,
        outcomes.map((o) => o.request.startedAt),
      );
      const rows = outcomes.map(({ request: { id }, ...o }) =>
        o.status === "succeeded"
          ? { id, status: o.status, result: o.result, errors: null }
          : { id, status: o.status, result: null, errors: o.errors },
      );
      // A stage is a run of the account's processing requests (lock-members.ts), so they are
      // found by their seq range on requests_open_idx, whatever the table's statistics say. By id
      // alone, on a partition never analysed (autovacuum off, or a new day's partition before its
      // first analyse), PostgreSQL scanned every open request of the account: 341 ms for a
      // 100-request stage at a 100,000 backlog, against 6 ms by range (EXPLAIN ANALYZE, same rows).
      const first = Math.min(...outcomes.map((o) => o.request.seq));
      const last = Math.max(...outcomes.map((o) => o.request.seq));
      const updating = database.rows<{ n: number }>(
        sql`with fence as (
              update request_queues set open_count = open_count - ${rows.length},
                     lease_until = now() + ${lease}, due_at = now() + ${lease}
               where account_id = ${accountId} and lease_owner = ${workerId}
              returning account_id),
            updated as (
              update requests r
                 set status = u.status, result = u.result, errors = u.errors, completed_at = ${completedAt}::timestamptz
                from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as u(id uuid, status text, result jsonb, errors jsonb)
               where r.account_id = ${accountId} and r.seq between ${first} and ${last} and r.id = u.id
                 and r.status = 'processing' and exists (select 1 from fence)
              returning 1)
            select count(*)::int as n from updated`,
        tx,
      );
      // Settled with the events' insert below; a failure fails the transaction either way.
      updating.catch(() => {});
      // The records as the update leaves them: what startStage read, the outcome, completed_at.
      const records = outcomes.map(({ request: r, ...o }) => ({
        record: finalRecordOf({
          id: r.id,
          kind: r.kind,
          status: o.status,
          traceId: r.traceId,
          idempotencyKey: r.idempotencyKey,
          apiKeyId: r.apiKeyId,
          itemCount: r.itemCount,
          acceptedAt: r.acceptedAt,
          startedAt: r.startedAt,
          completedAt,
          attempts: r.attempts,
          result: o.status === "succeeded" ? (o.result as StoredRequest["result"]) : null,
          errors: o.status === "failed" ? (o.errors as StoredRequest["errors"]) : null,
          error: null,
        }),
        traceparent,
      }));
      const taken = await slots;
      await turn?.();
      // If the lease was lost the update changed nothing, and the events just inserted roll back
      // with the transaction that LeaseLost ends.
      const [[updated]] = await Promise.all([
        updating,
        insertRequestEvents(tx, accountId, taken, records, turn),
      ]);
      if (updated?.n !== rows.length)
        throw new LeaseLost(`finishStage recorded ${updated?.n ?? 0} of ${rows.length} requests`);
    },

    /**
     * After a transient failure (the apply transaction rolled back, or the worker died in the
     * request's last attempt): each request either waits `delayMs` to retry, still `processing`,
     * or, with its attempts used up, is `dead`, and writes its `request.dead` event. A retry writes
     * no event: the request is not final yet. Fenced like the others.
     */
    async settleFailed(
      accountId: string,
      settled: { id: string; dead: boolean; delayMs: number }[],
      error: { code: string; message: string },
    ): Promise<void> {
      if (settled.length === 0) return;
      const dead = settled.filter((s) => s.dead).length;
      await database.db.transaction(async (tx) => {
        // The account row first, as in finishStage (outbox/index.ts); only when some die.
        const slots = dead > 0 ? await reserveRequestEvents(database, tx, accountId, dead) : undefined;
        const held = await database.rows(
          sql`update request_queues set open_count = open_count - ${dead}
               where account_id = ${accountId} and lease_owner = ${workerId} returning account_id`,
          tx,
        );
        if (held.length === 0) throw new LeaseLost("settleFailed found the lease gone");
        const updated = await database.rows<RecordRow & { traceparent: string | null }>(
          sql`update requests r
                 set status = case when u.dead then 'dead' else 'processing' end,
                     completed_at = case when u.dead then now() end,
                     next_attempt_at = now() + make_interval(secs => u.delay_ms / 1000.0),
                     error = ${JSON.stringify(error)}::jsonb
                from jsonb_to_recordset(${JSON.stringify(settled.map((s) => ({ id: s.id, dead: s.dead, delay_ms: s.delayMs })))}::jsonb)
                  as u(id uuid, dead boolean, delay_ms int)
               where r.account_id = ${accountId} and r.id = u.id and r.status = 'processing'
              returning ${RECORD_COLUMNS}, r.traceparent`,
          tx,
        );
        if (updated.length !== settled.length) throw new Error("settled requests were not all processing");
        if (!slots) return;
        const byId = new Map(updated.map((r) => [r.id, r]));
        // In the order given (queue order). The stage that failed rolled back and its span with it:
        // a dead request's event continues the trace of the call that submitted it.
        const records = settled
          .filter((s) => s.dead)
          .map((s) => {
            const row = byId.get(s.id) as RecordRow & { traceparent: string | null };
            return {
              // The worker's errors are the spec's DeadError (code processing_failed), typed loosely here.
              record: finalRecord(row, {
                result: null,
                errors: null,
                error: error as StoredRequest["error"],
              }),
              traceparent: row.traceparent,
            };
          });
        await insertRequestEvents(tx, accountId, slots, records);
      });
    },

    /**
     * A pipelined stage that never ran (the stage before it rolled back): its requests were on
     * their first attempt and go back to `pending` with that attempt uncounted.
     */
    async unstart(accountId: string, ids: string[]): Promise<void> {
      if (ids.length === 0) return;
      await database.rows(
        sql`update requests set status = 'pending', attempts = 0, started_at = null
             where account_id = ${accountId} and ${isOpen} and attempts = 1
               and id in (select jsonb_array_elements_text(${JSON.stringify(ids)}::jsonb)::uuid)
               and exists (select 1 from request_queues q where q.account_id = ${accountId} and q.lease_owner = ${workerId})`,
      );
    },
  };
}

export type Transitions = ReturnType<typeof createTransitions>;
