// Queue operations on the requests table: claim under a lease, fence the apply transaction on
// that lease, and finish, retry or bury. Per-account FIFO: only an account's oldest unfinished
// request can be claimed, so an order, its return and the return's dispositions apply in order.
import { sql } from "drizzle-orm";
import type { Database, Tx } from "../db/client.ts";
import type { RequestRow } from "../store/requests.ts";

export interface ClaimedRequest {
  accountId: string;
  id: string;
  kind: string;
  attempts: number;
  traceId: string;
}

export function createQueue(database: Database, workerId: string) {
  return {
    /** Claims up to `limit` heads of distinct accounts' queues. */
    async claim(limit: number, leaseMs: number): Promise<ClaimedRequest[]> {
      const rows = await database.rows<{
        account_id: string;
        id: string;
        kind: string;
        attempts: number;
        trace_id: string;
      }>(sql`
        update requests r
           set status = 'processing',
               started_at = coalesce(r.started_at, now()),
               attempts = r.attempts + 1,
               lease_owner = ${workerId},
               lease_until = now() + make_interval(secs => ${leaseMs / 1000})
          from (
            select c.account_id, c.id
              from requests c
             where c.status in ('pending', 'processing')
               and c.next_attempt_at <= now()
               and (c.lease_until is null or c.lease_until < now())
               and not exists (
                 select 1 from requests e
                  where e.account_id = c.account_id
                    and e.status in ('pending', 'processing')
                    and e.seq < c.seq)
             order by c.seq
             limit ${limit}
             for update skip locked
          ) picked
         where r.account_id = picked.account_id and r.id = picked.id
        returning r.account_id, r.id, r.kind, r.attempts, r.trace_id`);
      return rows.map((r) => ({
        accountId: r.account_id,
        id: r.id,
        kind: r.kind,
        attempts: r.attempts,
        traceId: r.trace_id,
      }));
    },

    /**
     * Locks the request for the apply transaction, if this worker still holds its lease. A worker
     * whose lease ran out gets nothing, so a request is never applied twice.
     */
    async lockForApply(tx: Tx, claimed: ClaimedRequest): Promise<RequestRow | undefined> {
      const rows = await database.rows<Record<string, unknown>>(
        sql`select account_id, id, kind, params, body from requests
             where account_id = ${claimed.accountId} and id = ${claimed.id}
               and status = 'processing' and lease_owner = ${workerId}
             for update`,
        tx,
      );
      const row = rows[0];
      if (!row) return undefined;
      return {
        accountId: row.account_id,
        id: row.id,
        kind: row.kind,
        params: row.params,
        body: row.body,
      } as RequestRow;
    },

    async finish(
      tx: Tx,
      claimed: ClaimedRequest,
      outcome: { status: "succeeded"; result: unknown } | { status: "failed"; errors: unknown[] },
    ): Promise<void> {
      const result = outcome.status === "succeeded" ? JSON.stringify(outcome.result) : null;
      const errors = outcome.status === "failed" ? JSON.stringify(outcome.errors) : null;
      await database.rows(
        sql`update requests set status = ${outcome.status}, completed_at = now(), lease_owner = null, lease_until = null,
                   result = ${result}::jsonb, errors = ${errors}::jsonb
             where account_id = ${claimed.accountId} and id = ${claimed.id}`,
        tx,
      );
    },

    /** After a transient failure: retry later (still `processing`), or `dead` when attempts run out. */
    async retryOrBury(
      claimed: ClaimedRequest,
      maxAttempts: number,
      delayMs: number,
      error: { code: string; message: string },
    ): Promise<"retry" | "dead"> {
      if (claimed.attempts >= maxAttempts) {
        await database.rows(
          sql`update requests set status = 'dead', completed_at = now(), lease_owner = null, lease_until = null,
                     error = ${JSON.stringify(error)}::jsonb
               where account_id = ${claimed.accountId} and id = ${claimed.id} and lease_owner = ${workerId}`,
        );
        return "dead";
      }
      await database.rows(
        sql`update requests set lease_owner = null, lease_until = null,
                   next_attempt_at = now() + make_interval(secs => ${delayMs / 1000}),
                   error = ${JSON.stringify(error)}::jsonb
             where account_id = ${claimed.accountId} and id = ${claimed.id} and lease_owner = ${workerId}`,
      );
      return "retry";
    },

    /** Time until the next retry is due or lease runs out (future moments only), or null. */
    async nextDueInMs(): Promise<number | null> {
      const [row] = await database.rows<{ ms: number | string | null }>(
        sql`select extract(epoch from (min(t) - now())) * 1000 as ms from (
              select next_attempt_at as t from requests
               where status in ('pending', 'processing') and next_attempt_at > now()
              union all
              select lease_until from requests where status = 'processing' and lease_until > now()) due`,
      );
      return row?.ms == null ? null : Math.max(1, Number(row.ms));
    },
  };
}

export type Queue = ReturnType<typeof createQueue>;
