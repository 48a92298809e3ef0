// The webhook-lag gauge on a real database (PGlite, or PostgreSQL when DATABASE_URL is set): its
// figure, and its cost, which must not grow with the attempts a receiver outage leaves pending.
// A database of its own: the gauge reads every account's attempts.
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import type { Database } from "../../db/client.ts";
import { newIdAt } from "../../store/ids.ts";
import { useFreshDatabase } from "../test-support.ts";
import { readWebhookLag, WEBHOOK_LAG } from "./history.ts";

let database: Database;
useFreshDatabase((opened) => {
  database = opened;
});

/** `count` events `ageSeconds` old, already fanned out, each with one attempt of `status`. */
async function attempts(count: number, ageSeconds: number, status: string): Promise<void> {
  // Ids made at the events' times, as the server makes them (created_at is the id's time): an
  // older event has a lower id. A millisecond apart, so they sort in the order made.
  const at = Date.now() - ageSeconds * 1000;
  const rows = Array.from({ length: count }, (_, i) => ({
    e: newIdAt("evt", at + i),
    d: newIdAt("whd", Date.now()),
  }));
  await database.rows(
    sql`insert into events (account_id, id, type, payload, created_at, dispatched_at)
        select 'acc_lag', r.e, 'return.created', '{}'::jsonb, oisr_ulid_time(r.e), now()
          from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as r(e text, d text)`,
  );
  await database.rows(
    sql`insert into webhook_deliveries (account_id, id, subscription_id, event_id, event_type, attempt, status,
                                        next_attempt_at, created_at)
        select 'acc_lag', r.d, 'whs_lag', r.e, 'return.created', 1, ${status}, now(), oisr_ulid_time(r.d)
          from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as r(e text, d text)`,
  );
}

describe("readWebhookLag", () => {
  it("is 0 with nothing owed, then the age of the oldest event with a pending attempt", async () => {
    expect(await readWebhookLag(database)).toEqual({ oldestUndeliveredAgeSeconds: 0 });
    await attempts(3, 7200, "succeeded"); // delivered long ago: owed nothing
    await attempts(3, 600, "pending");
    await attempts(3, 60, "pending");
    const { oldestUndeliveredAgeSeconds } = await readWebhookLag(database);
    expect(oldestUndeliveredAgeSeconds).toBeGreaterThanOrEqual(600);
    expect(oldestUndeliveredAgeSeconds).toBeLessThan(660);
  });

  it("reads one entry of the pending-event index, index-only, however many attempts are pending", async () => {
    await attempts(5000, 30, "pending");
    await attempts(5000, 30, "failed");
    await database.rows(sql`vacuum analyze webhook_deliveries`);
    const plan = await database.rows<Record<string, string>>(
      sql`explain (analyze, costs off, timing off, summary off) ${WEBHOOK_LAG}`,
    );
    const text = plan.map((row) => Object.values(row)[0]).join("\n");
    // The partitions' copies of webhook_deliveries_pending_event_idx (named after their partition,
    // decision 020), merged in event order: one entry read from each, not the 5,000 pending attempts.
    const scans = [
      ...text.matchAll(
        /Index Only Scan using (webhook_deliveries_p\S+_event_id_account_id_idx)[^\n]*\(actual rows=(\d+)/g,
      ),
    ];
    expect(scans.length).toBeGreaterThan(0);
    for (const scan of scans) expect(Number(scan[2])).toBeLessThanOrEqual(1);
  });
});
