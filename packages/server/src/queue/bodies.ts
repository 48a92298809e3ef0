// The stored calls of a stage's requests, locked for its apply transaction.
import { sql } from "drizzle-orm";
import type { Database, Tx } from "../db/client.ts";
import { LeaseLost } from "./transitions.ts";

export interface StoredCall {
  id: string;
  kind: string;
  params: Record<string, string> | null;
  body: unknown;
}

/**
 * Locks the stage's requests (in queue order) and reads their bodies. They were started by this
 * worker and are still `processing`; if one is not, another worker took the account over and
 * finished it, and this stage must not apply anything.
 */
export async function lockMembers(
  database: Database,
  tx: Tx,
  accountId: string,
  ids: string[],
): Promise<StoredCall[]> {
  const rows = await database.rows<StoredCall>(
    sql`select id, kind, params, body from requests
         where account_id = ${accountId} and status = 'processing'
           and id in (select jsonb_array_elements_text(${JSON.stringify(ids)}::jsonb)::uuid)
         order by seq
         for update`,
    tx,
  );
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids.map((id) => {
    const row = byId.get(id);
    if (!row) throw new LeaseLost();
    return row;
  });
}
