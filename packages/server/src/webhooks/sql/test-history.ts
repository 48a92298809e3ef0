// Shared by the webhook SQL tests (not used by the server): webhook history written as if it were
// made `age` days ago, in the day partitions of that time (the server makes only those around now).
import { sql } from "drizzle-orm";
import { ulid } from "ulidx";
import type { Database } from "../../db/client.ts";
import { events } from "../../db/schema.ts";
import { webhookDeliveries } from "../../db/webhook-schema.ts";

const DAY = 86_400_000;
export const daysAgo = (n: number) => new Date(Date.now() - n * DAY);

/** Writers of past history on the database `current()` returns (a test file's fresh database). */
export function pastHistory(current: () => Database) {
  return {
    /** The partitions of `events` and `webhook_deliveries` for the day `age` days ago. */
    async partitionsAt(age: number) {
      const from = daysAgo(age).toISOString();
      const to = daysAgo(age - 1).toISOString();
      for (const table of ["events", "webhook_deliveries"])
        await current().rows(
          sql`select oisr_ensure_table_partitions(${table}, ${from}::timestamptz, ${to}::timestamptz, interval '1 day')`,
        );
    },

    /** An event as the worker writes it `age` days ago: its id carries that time, which is its created_at. */
    async event(accountId: string, age: number) {
      const at = daysAgo(age);
      const id = `evt_${ulid(at.getTime())}`;
      const type = "return.created";
      await current()
        .db.insert(events)
        .values({
          accountId,
          id,
          type,
          createdAt: at.toISOString(),
          dispatchedAt: at.toISOString(),
          feedSeq: Math.floor(at.getTime() / 1000),
          payload: { id, type, created_at: at.toISOString(), data: { object: {} } },
        });
      return id;
    },

    /** An attempt made `age` days ago (its id and created_at of that time); a pending one is due now. */
    async attempt(
      accountId: string,
      subscriptionId: string,
      eventId: string,
      age: number,
      status: "pending" | "succeeded" | "failed",
      n = 1,
    ) {
      const at = daysAgo(age);
      const id = `whd_${ulid(at.getTime())}`;
      await current()
        .db.insert(webhookDeliveries)
        .values({
          accountId,
          id,
          subscriptionId,
          eventId,
          eventType: "return.created",
          attempt: n,
          status,
          // Due now when pending: a receiver's long pause, or dispatchers that were down, let it wait.
          nextAttemptAt: status === "pending" ? new Date().toISOString() : null,
          attemptedAt: status === "pending" ? null : at.toISOString(),
          createdAt: at.toISOString(),
        });
      return id;
    },
  };
}
