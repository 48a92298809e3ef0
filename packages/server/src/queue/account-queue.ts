// GET /requests/queue: one account's queue in one statement, in constant time whatever its backlog.
// The open count is request_queues.open_count (kept by the statements that accept and finish
// requests, decision 009); the head is the first open request in seq order (requests_open_idx).
// The processing count walks only the requests being processed (sql.ts queueHeadJoins).
import { type RequestQueue, toRequestQueue } from "@oisr/contract";
import { sql } from "drizzle-orm";
import type { Database } from "../db/client.ts";
import { queueHeadJoins } from "./sql.ts";
import type { OPEN_STATUSES } from "./statuses.ts";

type OpenStatus = (typeof OPEN_STATUSES)[number];

export function createAccountQueueReader(database: Database) {
  return {
    async accountQueue(accountId: string): Promise<RequestQueue> {
      const [row] = await database.rows<{
        open: number | string;
        processing: number | string | null;
        id: string | null;
        status: OpenStatus | null;
        accepted_at: string | null;
      }>(
        sql`select q.open_count as open, p.n as processing, h.id, h.status, h.accepted_at
              from request_queues q
              ${queueHeadJoins}
             where q.account_id = ${accountId}`,
      );
      return toRequestQueue(
        Number(row?.open ?? 0),
        Number(row?.processing ?? 0),
        row?.id && row.status && row.accepted_at
          ? { id: row.id, status: row.status, acceptedAt: row.accepted_at }
          : undefined,
      );
    },
  };
}
