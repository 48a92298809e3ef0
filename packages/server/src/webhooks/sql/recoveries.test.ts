// Recovery steps on a real database (PGlite, or PostgreSQL when DATABASE_URL is set): what a
// recovery queues, in batches, each event once however many dispatchers step through it.
import { TEST_EVENT_TYPE } from "@oisr/contract";
import { and, asc, eq } from "drizzle-orm";
import { ulid } from "ulidx";
import { describe, expect, it } from "vitest";
import type { Database } from "../../db/client.ts";
import { events } from "../../db/schema.ts";
import { webhookDeliveries } from "../../db/webhook-schema.ts";
import { newId, newTimedId } from "../../store/ids.ts";
import { useFreshDatabase } from "../test-support.ts";
import { createRecoveryStore, runRecoveryStep } from "./recoveries.ts";
import { createSubscriptionStore } from "./subscriptions.ts";

let database: Database;
useFreshDatabase((opened) => {
  database = opened;
});

const MINUTE = 60_000;
const minutesAgo = (n: number) => new Date(Date.now() - n * MINUTE);

/**
 * An account's events, one every `spacing` minutes ending a minute ago, with feed positions 1, 2, …
 * in that order, each id made at its time as the server makes them.
 */
async function feed(accountId: string, types: string[], spacing = 1): Promise<string[]> {
  const ids: string[] = [];
  for (const [i, type] of types.entries()) {
    const moment = minutesAgo((types.length - i) * spacing);
    const at = moment.toISOString();
    const id = `evt_${ulid(moment.getTime())}`;
    ids.push(id);
    await database.db.insert(events).values({
      accountId,
      id,
      // Test events have no feed position (outbox/feed.ts).
      feedSeq: type === TEST_EVENT_TYPE ? null : i + 1,
      type,
      createdAt: at,
      dispatchedAt: at,
      payload: { id, type, created_at: at, data: { object: {} } },
    });
  }
  return ids;
}

async function setup(types: string[], subscribed = ["return.created"], spacing = 1) {
  const accountId = newId("acc");
  const subscriptions = createSubscriptionStore(database);
  const sub = await subscriptions.create(accountId, {
    url: "https://hooks.example.com/r",
    events: subscribed,
  });
  const ids = await feed(accountId, types, spacing);
  return { accountId, sub, ids, subscriptions };
}

async function start(accountId: string, subscriptionId: string, sinceMinutes = 60, untilMinutes = 0) {
  const started = await createRecoveryStore(database).startRecovery(accountId, subscriptionId, {
    since: minutesAgo(sinceMinutes),
    until: minutesAgo(untilMinutes),
  });
  if (started.outcome !== "started") throw new Error(started.outcome);
  return started.recovery;
}

/** Steps until no recovery is running; returns how many steps did work. */
async function drain(batchSize: number): Promise<number> {
  let steps = 0;
  while (await runRecoveryStep(database, batchSize)) steps++;
  return steps;
}

async function queued(accountId: string, subscriptionId: string) {
  return database.db
    .select({
      eventId: webhookDeliveries.eventId,
      trigger: webhookDeliveries.trigger,
      round: webhookDeliveries.round,
      attempt: webhookDeliveries.attempt,
      status: webhookDeliveries.status,
    })
    .from(webhookDeliveries)
    .where(
      and(eq(webhookDeliveries.accountId, accountId), eq(webhookDeliveries.subscriptionId, subscriptionId)),
    )
    .orderBy(asc(webhookDeliveries.id));
}

describe("webhook recoveries", () => {
  it("queues, batch by batch, a new round of every event of the window the subscription receives", async () => {
    const types = [
      "return.created",
      "return.updated",
      "return.created",
      TEST_EVENT_TYPE,
      "return.created",
      "return.created",
      "return.created",
    ];
    const { accountId, sub, ids, subscriptions } = await setup(types);
    // The first event was delivered before (round 0): the recovery's sending of it is round 1.
    await database.db.insert(webhookDeliveries).values({
      accountId,
      ...newTimedId("whd"),
      subscriptionId: sub.id,
      eventId: ids[0] as string,
      eventType: "return.created",
      attempt: 1,
      status: "succeeded",
    });
    const recovery = await start(accountId, sub.id);
    expect(recovery).toMatchObject({ status: "running", eventsQueued: 0, completedAt: null });

    expect(await runRecoveryStep(database, 2)).toBe(true);
    const afterOne = await subscriptions.getRecovery(accountId, sub.id, recovery.id);
    expect(afterOne).toMatchObject({ status: "running", eventsQueued: 2, afterFeedSeq: 3 });

    // 5 matching events in batches of 2: a third, short batch completes it.
    expect(await drain(2)).toBe(2);
    const done = await subscriptions.getRecovery(accountId, sub.id, recovery.id);
    expect(done).toMatchObject({ status: "completed", eventsQueued: 5, afterFeedSeq: 7 });
    expect(done?.completedAt).not.toBeNull();

    const wanted = ids.filter((_, i) => types[i] === "return.created");
    const rows = await queued(accountId, sub.id);
    const recovered = rows.filter((r) => r.trigger === "recover");
    expect(recovered.map((r) => r.eventId)).toEqual(wanted);
    expect(recovered.map((r) => r.round)).toEqual([1, 0, 0, 0, 0]);
    expect(recovered.every((r) => r.attempt === 1 && r.status === "pending")).toBe(true);
  });

  it("keeps to [since, until) and to the account", async () => {
    const { accountId, sub, ids } = await setup(Array(6).fill("return.created"));
    // Created 6, 5, 4, 3, 2 and 1 minutes ago; the window [4.5, 1.5) minutes ago holds the 3 middle ones.
    await feed(newId("acc"), Array(3).fill("return.created"));
    const recovery = await start(accountId, sub.id, 4.5, 1.5);
    await drain(10);
    expect((await queued(accountId, sub.id)).map((r) => r.eventId)).toEqual(ids.slice(2, 5));
    const done = await createRecoveryStore(database).getRecovery(accountId, sub.id, recovery.id);
    expect(done).toMatchObject({ status: "completed", eventsQueued: 3 });
  });

  it("starts its walk along the feed near the window, not at the feed's start", async () => {
    // Events 10, 8, 6, 4 and 2 hours ago, at positions 1 to 5; the window from 3.5 hours ago holds the last.
    const { accountId, sub, ids } = await setup(Array(5).fill("return.created"), ["return.created"], 120);
    const recovery = await start(accountId, sub.id, 210);
    // The walk starts before the first event made at most an hour before `since` (4 hours ago, position 4).
    expect(recovery.afterFeedSeq).toBe(3);
    await drain(10);
    expect((await queued(accountId, sub.id)).map((r) => r.eventId)).toEqual(ids.slice(4));
    // With no event that recent, at the feed's end.
    const { accountId: quiet, sub: quietSub } = await setup(
      Array(3).fill("return.created"),
      ["return.created"],
      120,
    );
    expect((await start(quiet, quietSub.id, 30)).afterFeedSeq).toBe(3);
    await drain(10);
  });

  it("queues each event once however many dispatchers step through it at once", async () => {
    const { accountId, sub, ids } = await setup(Array(25).fill("return.created"));
    const first = await start(accountId, sub.id);
    const second = await start(accountId, sub.id);
    await Promise.all(
      Array.from({ length: 4 }, async () => {
        while (await runRecoveryStep(database, 3)) {}
      }),
    );
    const rows = await queued(accountId, sub.id);
    // Two recoveries, two rounds of every event: rounds 0 and 1, each event once per round.
    expect(rows).toHaveLength(50);
    for (const round of [0, 1]) {
      expect(
        rows
          .filter((r) => r.round === round)
          .map((r) => r.eventId)
          .sort(),
      ).toEqual([...ids].sort());
    }
    const store = createRecoveryStore(database);
    for (const r of [first, second]) {
      expect(await store.getRecovery(accountId, sub.id, r.id)).toMatchObject({
        status: "completed",
        eventsQueued: 25,
      });
    }
  });

  it("completes with what was queued when the subscription is disabled or deleted meanwhile", async () => {
    const { accountId, sub, subscriptions } = await setup(Array(5).fill("return.created"));
    const disabled = await start(accountId, sub.id);
    await runRecoveryStep(database, 2);
    await subscriptions.update(accountId, sub.id, { status: "disabled" });
    await drain(2);
    expect(await subscriptions.getRecovery(accountId, sub.id, disabled.id)).toMatchObject({
      status: "completed",
      eventsQueued: 2,
    });
    // Disabling dropped the pending attempts: nothing is left to send.
    expect(await queued(accountId, sub.id)).toEqual([]);

    await subscriptions.update(accountId, sub.id, { status: "enabled" });
    const deleted = await start(accountId, sub.id);
    await subscriptions.remove(accountId, sub.id);
    await drain(2);
    expect(await subscriptions.getRecovery(accountId, sub.id, deleted.id)).toMatchObject({
      status: "completed",
      eventsQueued: 0,
    });
  });

  it("refuses a disabled subscription and an unknown one", async () => {
    const { accountId, sub, subscriptions } = await setup([]);
    const store = createRecoveryStore(database);
    const window = { since: minutesAgo(10), until: new Date() };
    await subscriptions.update(accountId, sub.id, { status: "disabled" });
    expect(await store.startRecovery(accountId, sub.id, window)).toEqual({ outcome: "disabled" });
    expect(await store.startRecovery(newId("acc"), sub.id, window)).toEqual({ outcome: "no_subscription" });
  });
});
