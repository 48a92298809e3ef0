// Retention of the webhook history on a real database (PGlite, or PostgreSQL when DATABASE_URL is set).
import { TEST_EVENT_TYPE } from "@oisr/contract";
import { eq, inArray, sql } from "drizzle-orm";
import pino from "pino";
import { ulid } from "ulidx";
import { describe, expect, it } from "vitest";
import { configWith } from "../../config.ts";
import type { Database } from "../../db/client.ts";
import { events } from "../../db/schema.ts";
import { webhookDeliveries, webhookRecoveries } from "../../db/webhook-schema.ts";
import { pruneEvents } from "../../outbox/index.ts";
import { newId } from "../../store/ids.ts";
import { startDispatcher } from "../dispatcher.ts";
import { useFreshDatabase, waitFor } from "../test-support.ts";
import { pruneAttempts, pruneRecoveries } from "./retention.ts";
import { createSubscriptionStore } from "./subscriptions.ts";

let database: Database;
useFreshDatabase((opened) => {
  database = opened;
});

const DAY = 86_400_000;
const RETENTION_DAYS = 30;
const daysAgo = (n: number) => new Date(Date.now() - n * DAY);

/** An event as the worker writes it `age` days ago (its id made then too), fanned out unless told otherwise. */
async function event(accountId: string, age: number, options: { dispatched?: boolean; type?: string } = {}) {
  const at = daysAgo(age);
  const id = `evt_${ulid(at.getTime())}`;
  const type = options.type ?? "return.created";
  await database.db.insert(events).values({
    accountId,
    id,
    type,
    createdAt: at.toISOString(),
    dispatchedAt: options.dispatched === false ? null : at.toISOString(),
    payload: { id, type, created_at: at.toISOString(), data: { object: {} } },
  });
  return id;
}

async function attempt(
  accountId: string,
  subscriptionId: string,
  eventId: string,
  age: number,
  status: "pending" | "succeeded" | "failed",
  options: { attempt?: number; type?: string } = {},
) {
  const at = daysAgo(age).toISOString();
  const id = newId("whd");
  await database.db.insert(webhookDeliveries).values({
    accountId,
    id,
    subscriptionId,
    eventId,
    eventType: options.type ?? "return.created",
    attempt: options.attempt ?? 1,
    status,
    nextAttemptAt: status === "pending" ? at : null,
    attemptedAt: status === "pending" ? null : at,
    createdAt: at,
  });
  return id;
}

async function subscription(accountId: string, status: "enabled" | "disabled" = "enabled") {
  const subs = createSubscriptionStore(database);
  const sub = await subs.create(accountId, {
    url: "https://hooks.example.com/x",
    events: ["return.created"],
  });
  if (status === "disabled") await subs.update(accountId, sub.id, { status: "disabled" });
  return sub.id;
}

async function eventIds(accountId: string): Promise<string[]> {
  const rows = await database.db
    .select({ id: events.id })
    .from(events)
    .where(eq(events.accountId, accountId));
  return rows.map((r) => r.id).sort();
}

async function attemptIds(accountId: string): Promise<string[]> {
  const rows = await database.db
    .select({ id: webhookDeliveries.id })
    .from(webhookDeliveries)
    .where(eq(webhookDeliveries.accountId, accountId));
  return rows.map((r) => r.id).sort();
}

describe("webhook history retention", () => {
  it("deletes old events nobody needs, keeps recent and undispatched ones", async () => {
    const acc = newId("acc");
    const noSubscriber = await event(acc, 31);
    const recent = await event(acc, 29);
    const neverFannedOut = await event(acc, 40, { dispatched: false });

    await pruneEvents(database, RETENTION_DAYS);

    expect(await eventIds(acc)).toEqual([recent, neverFannedOut].sort());
    expect(await eventIds(acc)).not.toContain(noSubscriber);
  });

  it("deletes an old event with its old finished attempts, and keeps one whose attempts may still be sent", async () => {
    const acc = newId("acc");
    const sub = await subscription(acc);
    const delivered = await event(acc, 35);
    await attempt(acc, sub, delivered, 35, "failed", { attempt: 1 });
    await attempt(acc, sub, delivered, 34, "succeeded", { attempt: 2 });
    const givenUp = await event(acc, 35);
    await attempt(acc, sub, givenUp, 34, "failed");
    const stillPending = await event(acc, 35);
    const pendingAttempt = await attempt(acc, sub, stillPending, 34, "pending");

    const deleted = await pruneEvents(database, RETENTION_DAYS);

    expect(deleted).toBe(2);
    expect(await eventIds(acc)).toEqual([stillPending]);
    // No attempt is left pointing at a deleted event; the pending one is untouched.
    expect(await attemptIds(acc)).toEqual([pendingAttempt]);
  });

  it("keeps an old event while one of its attempts is within the retention period (GET …/deliveries shows 30 days)", async () => {
    const acc = newId("acc");
    const sub = await subscription(acc);
    const lateRetry = await event(acc, 31);
    await attempt(acc, sub, lateRetry, 31, "failed", { attempt: 1 });
    await attempt(acc, sub, lateRetry, 29.5, "succeeded", { attempt: 2 });

    expect(await pruneEvents(database, RETENTION_DAYS)).toBe(0);
    expect(await eventIds(acc)).toEqual([lateRetry]);
    expect(await attemptIds(acc)).toHaveLength(2);
  });

  it("counts the pending attempts of a disabled or deleted subscription as finished, but not a pending test event", async () => {
    const acc = newId("acc");
    const disabled = await subscription(acc, "disabled");
    const deleted = await subscription(acc);
    await createSubscriptionStore(database).remove(acc, deleted);
    // Left pending by a crash while it was being disabled or deleted: they will never be sent.
    const toDisabled = await event(acc, 40);
    await attempt(acc, disabled, toDisabled, 40, "pending");
    const toDeleted = await event(acc, 40);
    await attempt(acc, deleted, toDeleted, 40, "pending");
    // Test events are sent to disabled subscriptions too (to check an endpoint before re-enabling it).
    const test = await event(acc, 40, { type: TEST_EVENT_TYPE });
    const testAttempt = await attempt(acc, disabled, test, 40, "pending", { type: TEST_EVENT_TYPE });

    expect(await pruneEvents(database, RETENTION_DAYS)).toBe(2);
    expect(await eventIds(acc)).toEqual([test]);
    expect(await attemptIds(acc)).toEqual([testAttempt]);
  });

  it("works through a backlog larger than one batch, across accounts", async () => {
    const accounts = [newId("acc"), newId("acc")];
    for (const acc of accounts) for (let i = 0; i < 7; i++) await event(acc, 31 + i);
    const keep = await event(accounts[0] as string, 1);

    expect(await pruneEvents(database, RETENTION_DAYS, { batchSize: 3 })).toBe(14);
    expect(await eventIds(accounts[0] as string)).toEqual([keep]);
    expect(await eventIds(accounts[1] as string)).toEqual([]);
  });

  it("prunes finished attempts past the period in batches, never a pending one", async () => {
    const acc = newId("acc");
    const sub = await subscription(acc);
    const evt = await event(acc, 10);
    const old = await Promise.all(
      [1, 2, 3, 4, 5].map((n) => attempt(acc, sub, evt, 40, n % 2 ? "failed" : "succeeded", { attempt: n })),
    );
    const pending = await attempt(acc, sub, evt, 40, "pending", { attempt: 6 });
    const recent = await attempt(acc, sub, evt, 29, "failed", { attempt: 7 });

    expect(await pruneAttempts(database, RETENTION_DAYS, { batchSize: 2 })).toBeGreaterThanOrEqual(
      old.length,
    );
    expect(await attemptIds(acc)).toEqual([pending, recent].sort());
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
    const left = await database.db
      .select({ id: webhookRecoveries.id })
      .from(webhookRecoveries)
      .where(eq(webhookRecoveries.accountId, acc));
    expect(left.map((r) => r.id)).toEqual([young]);
  });

  it("is run by the dispatcher, which follows the retention it is given", async () => {
    const acc = newId("acc");
    const sub = await subscription(acc);
    const old = await event(acc, 3);
    await attempt(acc, sub, old, 3, "succeeded");
    const young = await event(acc, 1);
    const dispatcher = await startDispatcher({
      config: configWith({
        webhookAllowPrivateNetworks: true,
        webhookRetrySchedule: [20],
        requestRetentionDays: 2,
      }),
      database,
      logger: pino({ level: "silent" }),
      send: async () => ({ ok: true, status: 204, durationMs: 1 }),
    });
    try {
      await waitFor(async () => !(await eventIds(acc)).includes(old), "the old event to be pruned");
      expect(await eventIds(acc)).toEqual([young]);
      const left = await database.db
        .select()
        .from(webhookDeliveries)
        .where(inArray(webhookDeliveries.eventId, [old]));
      expect(left).toEqual([]);
    } finally {
      await dispatcher.stop();
    }
  });

  it("leaves no attempt without its event after a prune (the rule holds on the whole database)", async () => {
    const [row] = await database.rows<{ n: number | string }>(
      sql`select count(*) as n from webhook_deliveries d
           where not exists (select 1 from events e where e.account_id = d.account_id and e.id = d.event_id)`,
    );
    expect(Number(row?.n)).toBe(0);
  });
});
