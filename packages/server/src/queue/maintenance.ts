// The queue's gauges (retention drops whole partitions: partitions/retention.ts). The gauges read request_queues (one row per account) and the
// head of each account with a backlog (one index probe each), never the backlog itself; the
// processing count walks only the requests that are processing (see stats()).
import { IDEMPOTENCY_WINDOW_MS } from "@oisr/contract";
import { sql } from "drizzle-orm";
import type { Database } from "../db/client.ts";
import { isOpen } from "./sql.ts";

export const IDEMPOTENCY_WINDOW = sql.raw(`interval '${IDEMPOTENCY_WINDOW_MS} milliseconds'`);

export interface QueueStats {
  /** Requests pending or processing. */
  queued: number;
  /** Of those, processing: started, being applied or waiting for a retry. */
  processing: number;
  /** Accounts with at least one. */
  backlogged: number;
  /** Age of the oldest request at the head of an account's queue, in seconds (0 when none). */
  oldestAgeSeconds: number;
}

export function createMaintenance(database: Database) {
  return {
    /**
     * The queue's gauges in one statement. Processing requests are always a prefix of their
     * account's open requests in `seq` order (transitions.ts starts the head and the fresh requests
     * right behind it; a later stage starts after the one before it), so they are counted up to the
     * account's first pending request: an account whose head is pending costs one probe, and the
     * rows read grow with the requests being processed or waiting for a retry, never with the
     * pending backlog.
     */
    async stats(): Promise<QueueStats> {
      const [row] = await database.rows<{
        queued: string | number;
        processing: string | number;
        backlogged: string | number;
        oldest: string | number | null;
      }>(
        sql`select coalesce(sum(q.open_count), 0) as queued, coalesce(sum(p.n), 0) as processing,
                   count(*) as backlogged, extract(epoch from now() - min(h.accepted_at)) as oldest
              from request_queues q
              left join lateral (select r.accepted_at, r.status from requests r
                                  where r.account_id = q.account_id and ${isOpen}
                                  order by r.seq limit 1) h on true
              left join lateral (select count(*) as n from requests r
                                  where h.status = 'processing' and r.account_id = q.account_id and ${isOpen}
                                    and r.seq < coalesce(
                                      (select f.seq from requests f
                                        where f.account_id = q.account_id and f.status = 'pending'
                                          and ${isOpen}
                                        order by f.seq limit 1),
                                      9223372036854775807)) p on true
             where q.open_count > 0`,
      );
      return {
        queued: Number(row?.queued ?? 0),
        processing: Number(row?.processing ?? 0),
        backlogged: Number(row?.backlogged ?? 0),
        oldestAgeSeconds: Math.max(0, Number(row?.oldest ?? 0)),
      };
    },
  };
}
