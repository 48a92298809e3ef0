// Test-only writers of `events` (not used by the server). They live in outbox/, the table's one
// owner, so ownership.test.ts keeps every write of the table in this directory.
import type { Database } from "../db/client.ts";
import { events } from "../db/schema.ts";
import { newIdAt } from "../store/ids.ts";

/** Inserts `count` committed `return.created` events of `accountId`, ids made at their created_at. */
export async function insertReturnEvents(
  database: Database,
  accountId: string,
  count: number,
): Promise<void> {
  const now = new Date().toISOString();
  await database.db.insert(events).values(
    Array.from({ length: count }, () => {
      const id = newIdAt("evt", now);
      return {
        accountId,
        id,
        type: "return.created",
        createdAt: now,
        payload: { id, type: "return.created", created_at: now, data: { object: {} } },
      };
    }),
  );
}
