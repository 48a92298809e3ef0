// Locks a stage's requests for its apply transaction (their stored calls came with startStage).
import { sql } from "drizzle-orm";
import type { Database, Tx } from "../db/client.ts";
import { LeaseLost } from "./transitions.ts";

/**
 * Locks the stage's requests (in queue order); their stored calls came with startStage
 * (transitions.ts). They were started by this worker and are still `processing`; if one is not,
 * another worker took the account over and finished it, and this stage must not apply anything.
 *
 * An account's open requests are the last ones it accepted (requests finish in FIFO order), and a
 * stage is a run of them, so its members are exactly the account's processing requests in their
 * seq range: one index range scan, whatever the table's statistics say. (Matching ids against a
 * JSON list was planned as a nested loop over a one-row estimate and took 0.6-1.5 s for 1,000.)
 */
export async function lockMembers(
  database: Database,
  tx: Tx,
  accountId: string,
  members: { id: string; seq: number }[],
): Promise<void> {
  const first = members[0];
  const last = members[members.length - 1];
  if (!first || !last) return;
  const rows = await database.rows<{ id: string }>(
    sql`select id from requests
         where account_id = ${accountId} and seq between ${first.seq} and ${last.seq} and status = 'processing'
         order by seq
         for update`,
    tx,
  );
  if (rows.length !== members.length || rows.some((r, i) => r.id !== members[i]?.id))
    throw new LeaseLost(
      `lockMembers found ${rows.length} processing requests in seq ${first.seq}..${last.seq} for ${members.length} members` +
        ` (first found ${rows[0]?.id ?? "none"}, first member ${first.id})`,
    );
}
