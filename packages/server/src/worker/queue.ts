// Queue operations on the requests table: claim under a lease, fence the apply transaction on
// that lease, and finish, retry or bury. Per-account FIFO: only an account's oldest unfinished
// request can be claimed, so an order, its return and the return's dispositions apply in order.
import { sql } from "drizzle-orm";
import type { Database, Tx } from "../db/client.ts";

export interface ClaimedRequest {
  accountId: string;
  id: string;
  kind: string;
  attempts: number;
  traceId: string;
}

/** A request applied in the same transaction as the head, after it. */
export interface GroupMember {
  id: string;
  seq: number;
  kind: string;
  traceId: string;
}

export type FinishedRequest = { id: string } & (
  | { status: "succeeded"; result: unknown }
  | { status: "failed"; errors: unknown[] }
);

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
    async lockForApply(
      tx: Tx,
      claimed: ClaimedRequest,
    ): Promise<{ seq: number; itemCount: number } | undefined> {
      const rows = await database.rows<{ seq: string | number; item_count: number }>(
        sql`select seq, item_count from requests
             where account_id = ${claimed.accountId} and id = ${claimed.id}
               and status = 'processing' and lease_owner = ${workerId}
             for update`,
        tx,
      );
      return rows[0] ? { seq: Number(rows[0].seq), itemCount: rows[0].item_count } : undefined;
    },

    /**
     * Locks the requests that follow a locked head in its account's queue, up to `limit`, and
     * returns the leading run of them that may join the head's apply transaction: never attempted
     * (`pending`, no attempts), due, and within `maxItems` items together with `headItems`. Only
     * heads can be claimed, so while this transaction holds the head no other worker can take
     * them; the row locks keep them until it ends.
     */
    async lockFollowers(
      tx: Tx,
      accountId: string,
      headSeq: number,
      limit: number,
      maxItems: number,
    ): Promise<GroupMember[]> {
      if (limit <= 0) return [];
      const rows = await database.rows<{
        id: string;
        seq: string | number;
        kind: string;
        trace_id: string;
        item_count: number;
        joinable: boolean;
      }>(
        sql`select id, seq, kind, trace_id, item_count,
                   (status = 'pending' and attempts = 0 and next_attempt_at <= now()) as joinable
              from requests
             where account_id = ${accountId} and status in ('pending', 'processing') and seq > ${headSeq}
             order by seq
             limit ${limit}
             for update`,
        tx,
      );
      const members: GroupMember[] = [];
      let items = 0;
      for (const r of rows) {
        items += r.item_count;
        if (!r.joinable || items > maxItems) break;
        members.push({ id: r.id, seq: Number(r.seq), kind: r.kind, traceId: r.trace_id });
      }
      return members;
    },

    /** The stored calls of locked requests, in the order of `ids`. */
    async bodies(
      tx: Tx,
      accountId: string,
      ids: string[],
    ): Promise<{ id: string; kind: string; params: Record<string, string> | null; body: unknown }[]> {
      const rows = await database.rows<{
        id: string;
        kind: string;
        params: Record<string, string> | null;
        body: unknown;
      }>(
        sql`select id, kind, params, body from requests
             where account_id = ${accountId} and id in (select jsonb_array_elements_text(${JSON.stringify(ids)}::jsonb)::uuid)`,
        tx,
      );
      const byId = new Map(rows.map((r) => [r.id, r]));
      return ids.map((id) => {
        const row = byId.get(id);
        if (!row) throw new Error(`request ${id} vanished while locked`);
        return row;
      });
    },

    /**
     * Records the outcome of every request of an apply transaction with one statement: the
     * claimed head if any (its attempt counted when claimed) and the followers (their one attempt
     * counted here).
     */
    async finish(
      tx: Tx,
      accountId: string,
      headId: string | null,
      outcomes: FinishedRequest[],
    ): Promise<void> {
      const rows = outcomes.map((o) =>
        o.status === "succeeded"
          ? { id: o.id, status: o.status, result: o.result, errors: null }
          : { id: o.id, status: o.status, result: null, errors: o.errors },
      );
      await database.rows(
        sql`update requests r
               set status = u.status, completed_at = now(), started_at = coalesce(r.started_at, now()),
                   attempts = case when r.id = ${headId}::uuid then r.attempts else r.attempts + 1 end,
                   lease_owner = null, lease_until = null, result = u.result, errors = u.errors
              from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as u(id uuid, status text, result jsonb, errors jsonb)
             where r.account_id = ${accountId} and r.id = u.id`,
        tx,
      );
    },

    /**
     * After a transient failure of an apply transaction that included followers: each was
     * attempted, so each counts the attempt and waits like a retry, still `processing`. Only
     * never-attempted requests join a group and `maxAttempts` is at least 2 when groups are
     * formed, so none is buried here; its next attempt is on its own (see apply.ts).
     */
    async followersAttempted(
      accountId: string,
      ids: string[],
      delayMs: number,
      error: { code: string; message: string },
    ): Promise<void> {
      if (ids.length === 0) return;
      await database.rows(
        sql`update requests set status = 'processing', attempts = attempts + 1,
                   started_at = coalesce(started_at, now()),
                   next_attempt_at = now() + make_interval(secs => ${delayMs / 1000}),
                   error = ${JSON.stringify(error)}::jsonb
             where account_id = ${accountId}
               and id in (select jsonb_array_elements_text(${JSON.stringify(ids)}::jsonb)::uuid)
               and status = 'pending' and attempts = 0`,
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
