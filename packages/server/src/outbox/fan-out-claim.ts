// The fan-out's two statements on `events` (webhooks/sql/fan-out.ts turns the claimed events into
// deliveries in between, in the same transaction). Claiming with SKIP LOCKED lets several
// dispatchers fan out at once, each on other events, without waiting on one another.
import { sql } from "drizzle-orm";
import type { Database, Tx } from "../db/client.ts";

export interface PickedEvent {
  account_id: string;
  id: string;
  type: string;
  created_at: string;
  traceparent: string | null;
}

/** Locks up to `limit` events not yet fanned out, oldest first; rows another dispatcher holds are skipped. */
export function claimUndispatched(database: Database, tx: Tx, limit: number): Promise<PickedEvent[]> {
  return database.rows<PickedEvent>(
    sql`select account_id, id, type, created_at, traceparent from events
         where dispatched_at is null
         order by seq
         limit ${limit}
         for update skip locked`,
    tx,
  );
}

/** Marks the claimed events fanned out, in the claiming transaction. */
export async function markDispatched(database: Database, tx: Tx, picked: PickedEvent[]): Promise<void> {
  await database.rows(
    sql`update events set dispatched_at = now()
         where (account_id, id) in (${sql.join(
           picked.map((e) => sql`(${e.account_id}, ${e.id})`),
           sql`, `,
         )})
           -- The partitions to look in (created_at is the partition key, decision 020).
           and created_at in (${sql.join(
             picked.map((e) => sql`oisr_ulid_time(${e.id})`),
             sql`, `,
           )})`,
    tx,
  );
}
