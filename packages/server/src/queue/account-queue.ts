// GET /requests/queue: one account's queue in one statement, in constant time whatever its backlog.
// The open count is request_queues.open_count (kept by the statements that accept and finish
// requests, decision 009); the head is the first open request in seq order (requests_open_idx).
// Processing requests are always a prefix of the account's open requests in seq order (see
// maintenance.ts stats()), so they are counted up to the first pending one: the rows read grow
// with the stage being applied, never with the pending backlog.
import { type RequestQueue, toRequestQueue } from "@oisr/contract";
import { sql } from "drizzle-orm";
import type { Database } from "../db/client.ts";
import { isOpen } from "./sql.ts";
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
              left join lateral (select r.id, r.status, r.accepted_at, r.seq from requests r
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
