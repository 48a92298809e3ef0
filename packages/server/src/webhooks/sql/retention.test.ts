// Retention of the webhook history on a real database (PGlite, or PostgreSQL when DATABASE_URL is
// set): events and attempts leave with their time partitions (decision 020), a pending attempt
// whose event is gone ends failed, the deliveries log still reads it, recoveries are pruned by row.
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import type { Database } from "../../db/client.ts";
import { webhookDeliveries, webhookRecoveries } from "../../db/webhook-schema.ts";
import { runRetentionPass } from "../../partitions/retention.ts";
import { newId } from "../../store/ids.ts";
import { useFreshDatabase } from "../test-support.ts";
import { createDeliveryStore, EVENT_GONE_ERROR } from "./attempts.ts";
import { createDeliveryHistory } from "./history.ts";
import { pruneRecoveries } from "./retention.ts";
import { createSubscriptionStore } from "./subscriptions.ts";
import { daysAgo, pastHistory } from "./test-history.ts";

let database: Database;
useFreshDatabase((opened) => {
  database = opened;
});

const RETENTION_DAYS = 30;
const { partitionsAt, event, attempt } = pastHistory(() => database);

async function subscription(accountId: string) {
  const sub = await createSubscriptionStore(database).create(accountId, {
    url: "https://hooks.example.com/x",
    events: ["return.created"],
  });
  // Made long ago, like the history below.
  await database.rows(
    sql`update webhook_subscriptions set created_at = now() - interval '60 days' where id = ${sub.id}`,
  );
  return sub.id;
}

const ids = async (table: "events" | "webhook_deliveries", accountId: string) =>
  (
    await database.rows<{ id: string }>(
      sql`select id from ${sql.identifier(table)} where account_id = ${accountId} order by id`,
    )
  ).map((r) => r.id);

describe("webhook history retention", () => {
  it("drops the same range of events and attempts together, deleting no row one by one", async () => {
    const acc = newId("acc");
    const sub = await subscription(acc);
    await partitionsAt(40);
    const old = await event(acc, 40);
    const oldAttempt = await attempt(acc, sub, old, 40, "succeeded");
    const young = await event(acc, 1);
    const youngAttempt = await attempt(acc, sub, young, 1, "failed");
    // A late sending (POST …/retry) of the old event, made within the period: it stays, in its own
    // partition, after its event has gone.
    const lateRetry = await attempt(acc, sub, old, 1, "succeeded", 1);

    const pass = await runRetentionPass(database, { retentionDays: RETENTION_DAYS });

    const day40 = `_p${daysAgo(40).toISOString().slice(0, 10).replaceAll("-", "")}_000000`;
    expect(pass.tables.events.dropped).toContain(`events${day40}`);
    expect(pass.tables.webhook_deliveries.dropped).toContain(`webhook_deliveries${day40}`);
    expect(pass.tables.events.rows_dropped).toBeGreaterThanOrEqual(1);
    expect(await ids("events", acc)).toEqual([young]);
    expect(await ids("webhook_deliveries", acc)).toEqual([lateRetry, youngAttempt].sort());
    expect(await ids("webhook_deliveries", acc)).not.toContain(oldAttempt);
    // Nothing deleted row by row: the live partitions of both tables hold no dead tuple.
    await database.rows(sql`select pg_stat_force_next_flush()`);
    const [dead] = await database.rows<{ n: string | number }>(
      sql`select coalesce(sum(n_dead_tup), 0) as n from pg_stat_user_tables
           where relname like 'events\\_p%' or relname like 'webhook\\_deliveries\\_p%'`,
    );
    expect(Number(dead?.n)).toBe(0);
  });

  it("keeps a partition holding an event not fanned out yet, and drops it once it is", async () => {
    const acc = newId("acc");
    await partitionsAt(45);
    const waiting = await event(acc, 45);
    await database.rows(sql`update events set dispatched_at = null where id = ${waiting}`);
    const day45 = `events_p${daysAgo(45).toISOString().slice(0, 10).replaceAll("-", "")}_000000`;

    const kept = await runRetentionPass(database, { retentionDays: RETENTION_DAYS });
    expect(kept.tables.events.kept_open).toContain(day45);
    expect(await ids("events", acc)).toEqual([waiting]);

    await database.rows(sql`update events set dispatched_at = now() where id = ${waiting}`);
    const dropped = await runRetentionPass(database, { retentionDays: RETENTION_DAYS });
    expect(dropped.tables.events.dropped).toContain(day45);
    expect(await ids("events", acc)).toEqual([]);
  });

  it("ends failed a pending attempt whose event was dropped, and the deliveries log still reads it", async () => {
    const acc = newId("acc");
    const sub = await subscription(acc);
    await partitionsAt(35);
    const gone = await event(acc, 35);
    // A retry of the old event made yesterday, still pending (the receiver asked to wait).
    const orphan = await attempt(acc, sub, gone, 1, "pending", 2);
    await runRetentionPass(database, { retentionDays: RETENTION_DAYS });
    expect(await ids("events", acc)).toEqual([]);

    const store = createDeliveryStore(database, "test-worker");
    // Claimed by nobody: the attempt ends instead, and the next claim does not meet it again.
    expect((await store.claim(10, 5, 30_000)).filter((c) => c.id === orphan)).toEqual([]);
    const [row] = await database.db
      .select()
      .from(webhookDeliveries)
      .where(sql`${webhookDeliveries.id} = ${orphan}`);
    expect(row).toMatchObject({ status: "failed", nextAttemptAt: null, error: EVENT_GONE_ERROR });
    expect((await store.claim(10, 5, 30_000)).filter((c) => c.id === orphan)).toEqual([]);

    const log = await createDeliveryHistory(database).list(acc, sub, null, 10);
    expect(log.map((d) => d.id)).toContain(orphan);
  });

  it("answers a retry of a delivery whose event was dropped as gone, not as an error", async () => {
    const acc = newId("acc");
    const sub = await subscription(acc);
    await partitionsAt(33);
    const gone = await event(acc, 33);
    const late = await attempt(acc, sub, gone, 2, "failed", 1);
    await runRetentionPass(database, { retentionDays: RETENTION_DAYS });

    const outcome = await createSubscriptionStore(database).retryDelivery(
      acc,
      sub,
      late,
      daysAgo(RETENTION_DAYS).toISOString(),
    );
    expect(outcome).toEqual({ outcome: "no_event", eventId: gone });
    // A malformed delivery id reads as unknown.
    expect(
      await createSubscriptionStore(database).retryDelivery(acc, sub, "whd_nope", daysAgo(30).toISOString()),
    ).toEqual({ outcome: "no_delivery" });
  });

  it("prunes recoveries made before the period, running or not, and keeps younger ones", async () => {
    const acc = newId("acc");
    const sub = await subscription(acc);
    const recovery = async (age: number, status: "running" | "completed") => {
      const id = newId("whr");
      await database.db.insert(webhookRecoveries).values({
        accountId: acc,
        id,
        subscriptionId: sub,
        since: daysAgo(age + 1).toISOString(),
        until: daysAgo(age).toISOString(),
        status,
        createdAt: daysAgo(age).toISOString(),
      });
      return id;
    };
    await recovery(31, "completed");
    await recovery(35, "running");
    await recovery(40, "completed");
    const young = await recovery(29, "completed");

    expect(await pruneRecoveries(database, RETENTION_DAYS, { batchSize: 2 })).toBe(3);
    const left = await database.rows<{ id: string }>(
      sql`select id from webhook_recoveries where account_id = ${acc}`,
    );
    expect(left.map((r) => r.id)).toEqual([young]);
  });
});
