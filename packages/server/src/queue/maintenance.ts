// Retention and the queue's gauges. The gauges read request_queues (one row per account) and the
// head of each account with a backlog (one index probe each), never the backlog itself.
import { IDEMPOTENCY_WINDOW_MS } from "@oisr/contract";
import { sql } from "drizzle-orm";
import type { Database } from "../db/client.ts";
import { isOpen } from "./sql.ts";

export const IDEMPOTENCY_WINDOW = sql.raw(`interval '${IDEMPOTENCY_WINDOW_MS} milliseconds'`);

export interface QueueStats {
  /** Requests pending or processing. */
  queued: number;
  /** Accounts with at least one. */
  backlogged: number;
  /** Age of the oldest request at the head of an account's queue, in seconds (0 when none). */
  oldestAgeSeconds: number;
}

export function createMaintenance(database: Database) {
  return {
    /** Deletes finished requests past retention and idempotency keys past their window. */
    async purge(retentionDays: number): Promise<void> {
      await database.rows(
        sql`delete from requests where not ${isOpen} and accepted_at < now() - make_interval(days => ${retentionDays})`,
      );
      await database.rows(sql`delete from idempotency_keys where created_at < now() - ${IDEMPOTENCY_WINDOW}`);
    },

    async stats(): Promise<QueueStats> {
      const [row] = await database.rows<{
        queued: string | number;
        backlogged: string | number;
        oldest: string | number | null;
      }>(
        sql`select coalesce(sum(q.open_count), 0) as queued, count(*) as backlogged,
                   extract(epoch from now() - min(h.accepted_at)) as oldest
              from request_queues q
              left join lateral (select r.accepted_at from requests r
                                  where r.account_id = q.account_id and ${isOpen}
                                  order by r.seq limit 1) h on true
             where q.open_count > 0`,
      );
      return {
        queued: Number(row?.queued ?? 0),
        backlogged: Number(row?.backlogged ?? 0),
        oldestAgeSeconds: Math.max(0, Number(row?.oldest ?? 0)),
      };
    },
  };
}
