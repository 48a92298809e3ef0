// The queue's gauges (retention drops whole partitions: partitions/retention.ts). They read
// request_queues (one row per account) and the head of each account with a backlog (one index
// probe each), never the backlog itself; the processing count walks only the requests that are
// processing (see stats()).
import { IDEMPOTENCY_WINDOW_MS } from "@oisr/contract";
import { sql } from "drizzle-orm";
import type { Database } from "../db/client.ts";
import { queueHeadJoins } from "./sql.ts";

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
    /** The queue's gauges in one statement, over the accounts with open requests (queueHeadJoins). */
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
              ${queueHeadJoins}
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
