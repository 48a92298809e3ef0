// The webhook-lag gauge on a real database (PGlite, or PostgreSQL when DATABASE_URL is set): its
// figure, and its cost, which must not grow with the attempts a receiver outage leaves pending.
// A database of its own: the gauge reads every account's attempts.
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import type { Database } from "../../db/client.ts";
import { useFreshDatabase } from "../test-support.ts";
import { readWebhookLag, WEBHOOK_LAG } from "./history.ts";

let database: Database;
useFreshDatabase((opened) => {
  database = opened;
});

/** `count` events `ageSeconds` old, already fanned out, each with one attempt of `status`. */
async function attempts(prefix: string, count: number, ageSeconds: number, status: string): Promise<void> {
  // Event ids sort by age, as ULIDs do: an older event has a lower id.
  await database.rows(
    sql`insert into events (account_id, id, type, payload, created_at, dispatched_at)
        select 'acc_lag', ${prefix} || lpad(i::text, 6, '0'), 'return.created', '{}'::jsonb,
               now() - make_interval(secs => ${ageSeconds}), now()
          from generate_series(1, ${count}) i`,
  );
  await database.rows(
    sql`insert into webhook_deliveries (account_id, id, subscription_id, event_id, event_type, attempt, status, next_attempt_at)
        select 'acc_lag', 'whd_' || ${prefix} || lpad(i::text, 6, '0'), 'whs_lag', ${prefix} || lpad(i::text, 6, '0'),
               'return.created', 1, ${status}, now()
          from generate_series(1, ${count}) i`,
  );
}

describe("readWebhookLag", () => {
  it("is 0 with nothing owed, then the age of the oldest event with a pending attempt", async () => {
    expect(await readWebhookLag(database)).toEqual({ oldestUndeliveredAgeSeconds: 0 });
    await attempts("evt_a", 3, 7200, "succeeded"); // delivered long ago: owed nothing
    await attempts("evt_b", 3, 600, "pending");
    await attempts("evt_c", 3, 60, "pending");
    const { oldestUndeliveredAgeSeconds } = await readWebhookLag(database);
    expect(oldestUndeliveredAgeSeconds).toBeGreaterThanOrEqual(600);
    expect(oldestUndeliveredAgeSeconds).toBeLessThan(660);
  });

  it("reads one entry of the pending-event index, index-only, however many attempts are pending", async () => {
    await attempts("evt_d", 5000, 30, "pending");
    await attempts("evt_e", 5000, 30, "failed");
    await database.rows(sql`vacuum analyze webhook_deliveries`);
    const plan = await database.rows<Record<string, string>>(
      sql`explain (analyze, costs off, timing off, summary off) ${WEBHOOK_LAG}`,
    );
    const text = plan.map((row) => Object.values(row)[0]).join("\n");
    expect(text).toMatch(/Index Only Scan using webhook_deliveries_pending_event_idx/);
    // One entry read (the first), not the 5,000 pending attempts.
    expect(text).toMatch(/pending_event_idx[^\n]*\(actual rows=1(\.00)? loops=1\)/);
  });
});
