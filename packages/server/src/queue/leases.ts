// Workers lease accounts, not requests: an account's requests apply one stage at a time in FIFO
// order, so one lease per account is all the fencing they need. request_queues has one row per
// account, and `due_at` says when the account next needs a worker, so claiming reads the due rows
// of one index in order: O(accounts claimed), whatever the backlog (decision 009).
import { sql } from "drizzle-orm";
import { REQUESTS_CHANNEL } from "../db/channels.ts";
import type { Database } from "../db/client.ts";
import { isOpen, millis } from "./sql.ts";

/**
 * An account with at most this many open requests is short work: claiming takes the due ones first
 * (at most one cut stage each: worker.ts YIELD_STAGE_ITEMS, one-order requests). Ten busy accounts
 * on four slots queue in `due_at` order, and an account that had been idle became due after every
 * one of them that was handed back before its request came: it waited up to two turns of every slot
 * (18 s p99 on the loaded machine, decision 017). Busy accounts wait for a short one's single stage,
 * and only while one is due; a stream of short accounts that keeps every slot busy would hold them
 * back, but then every account is already waiting on the workers.
 */
export const SHORT_QUEUE = 100;

/** A leased account, and whether it was claimed as long work (more than SHORT_QUEUE open requests). */
export interface Claimed {
  accountId: string;
  long: boolean;
}

export function createLeases(database: Database, workerId: string, leaseMs: number) {
  const lease = millis(leaseMs);
  return {
    /**
     * Leases up to `limit` accounts with due work: short queues first (SHORT_QUEUE), then longest
     * waiting first, at most `longLimit` of them long (the worker keeps a slot for short ones:
     * worker.ts SHORT_LANE). While leased, an account's `due_at` is the lease's end: if its worker
     * dies, the account is due again then.
     */
    async claim(limit: number, longLimit = limit): Promise<Claimed[]> {
      if (limit <= 0) return [];
      const rows = await database.rows<{ account_id: string; long: boolean }>(
        // `= any(array(…))`, not a join: the claimed rows are then found by primary key, where a
        // join was planned as a hash join over every account's row. Each of the two reads walks
        // request_queues_due_idx in order and stops at `limit` rows it could lock.
        sql`with short as (
              select account_id, due_at from request_queues
               where due_at <= now() and open_count <= ${SHORT_QUEUE}
               order by due_at limit ${limit}
               for update skip locked),
            long as (
              select account_id, due_at from request_queues
               where due_at <= now() and open_count > ${SHORT_QUEUE}
               order by due_at limit ${Math.min(limit, Math.max(0, longLimit))}
               for update skip locked)
            update request_queues q
               set lease_owner = ${workerId}, lease_until = now() + ${lease}, due_at = now() + ${lease}
             where q.account_id = any(array(
                     select account_id from (select account_id, due_at, 0 as rank from short
                                             union all
                                             select account_id, due_at, 1 from long) c
                      order by rank, due_at
                      limit ${limit}))
            -- The rows are locked since the reads above, so open_count is the count they classed.
            returning q.account_id, q.open_count > ${SHORT_QUEUE} as long`,
      );
      return rows.map((r) => ({ accountId: r.account_id, long: r.long }));
    },

    /**
     * Hands the account back. It is due again at once if it has open requests (the head's retry
     * time if the head waits out a backoff), else it rests until a request is accepted. The open
     * count is read from the row itself, so a request accepted meanwhile is never missed. When the
     * account is due now, the same statement wakes the workers of every process (NOTIFY at commit,
     * with this worker's id as payload) so that one with a free slot takes it.
     */
    async release(accountId: string): Promise<void> {
      await database.rows(
        sql`with released as (
              update request_queues q
                 set lease_owner = null, lease_until = null,
                     due_at = case when q.open_count > 0 then greatest(now(), coalesce(
                       (select r.next_attempt_at from requests r
                         where r.account_id = q.account_id and ${isOpen} order by r.seq limit 1), now())) end
               where q.account_id = ${accountId} and q.lease_owner = ${workerId}
              returning q.due_at <= now() as due_now)
            select pg_notify(${REQUESTS_CHANNEL}, ${workerId}) from released where due_now`,
      );
    },

    /** Whether an account with short work (SHORT_QUEUE), not leased by anyone, waits for a worker. */
    async othersDue(): Promise<boolean> {
      const [row] = await database.rows<{ due: boolean }>(
        sql`select exists (select 1 from request_queues where due_at <= now() and open_count <= ${SHORT_QUEUE}) as due`,
      );
      return row?.due === true;
    },

    /** Time until the next account is due (a retry, a lease running out), or null. */
    async nextDueInMs(): Promise<number | null> {
      const [row] = await database.rows<{ ms: number | string | null }>(
        sql`select extract(epoch from (min(due_at) - now())) * 1000 as ms from request_queues where due_at > now()`,
      );
      return row?.ms == null ? null : Math.max(1, Number(row.ms));
    },
  };
}

export type Leases = ReturnType<typeof createLeases>;
