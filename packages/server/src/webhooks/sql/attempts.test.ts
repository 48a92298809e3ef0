// The delivery queue on a real database (PGlite, or PostgreSQL when DATABASE_URL is set).
import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import type { Database } from "../../db/client.ts";
import { events } from "../../db/schema.ts";
import { webhookDeliveries, webhookSubscriptions } from "../../db/webhook-schema.ts";
import { newId, newIdAt } from "../../store/ids.ts";
import { sleep, useFreshDatabase } from "../test-support.ts";
import { createDeliveryStore, type RecordPolicy } from "./attempts.ts";
import { fanOut } from "./fan-out.ts";
import { createSubscriptionStore } from "./subscriptions.ts";

let database: Database;
useFreshDatabase((opened) => {
  database = opened;
});

const policy: RecordPolicy = { schedule: [1000, 2000], disableAfterFailures: 1000, disableAfterMs: 0 };
const LEASE = 60_000;

async function emit(
  accountId: string,
  type = "return.created",
  createdAt = new Date().toISOString(),
): Promise<string> {
  const id = newIdAt("evt", createdAt);
  await database.db.insert(events).values({
    accountId,
    id,
    type,
    createdAt,
    payload: { id, type, created_at: createdAt, data: { object: { n: 1 } } },
  });
  return id;
}

async function attemptsOf(accountId: string, subscriptionId: string) {
  const rows = await database.db
    .select()
    .from(webhookDeliveries)
    .where(eq(webhookDeliveries.subscriptionId, subscriptionId));
  return rows.filter((r) => r.accountId === accountId).sort((a, b) => a.attempt - b.attempt);
}

/** A new account with one subscription and `count` events fanned out to it. */
async function queued(count: number, events_ = ["return.created"]) {
  const accountId = newId("acc");
  const sub = await createSubscriptionStore(database).create(accountId, {
    url: "https://hooks.example.com/x",
    events: events_,
  });
  for (let i = 0; i < count; i++) await emit(accountId);
  while ((await fanOut(database)).events > 0);
  return { accountId, sub };
}

describe("fan-out", () => {
  it("makes one delivery per enabled, subscribed subscription of the event's account, once", async () => {
    const subs = createSubscriptionStore(database);
    const a = newId("acc");
    const b = newId("acc");
    const wanted = await subs.create(a, {
      url: "https://hooks.example.com/1",
      events: ["return.created", "return.updated"],
    });
    const disabled = await subs.create(a, { url: "https://hooks.example.com/2", events: ["return.created"] });
    await subs.update(a, disabled.id, { status: "disabled" });
    const otherType = await subs.create(a, {
      url: "https://hooks.example.com/3",
      events: ["return.completed"],
    });
    const otherAccount = await subs.create(b, {
      url: "https://hooks.example.com/4",
      events: ["return.updated"],
    });
    const event = await emit(a);
    await sleep(5);
    const tooLate = await subs.create(a, { url: "https://hooks.example.com/5", events: ["return.created"] });

    while ((await fanOut(database)).events > 0);
    expect(await fanOut(database)).toEqual({ events: 0, deliveries: 0 });
    const [wantedRows, ...others] = await Promise.all(
      [wanted, disabled, otherType, tooLate].map((s) => attemptsOf(a, s.id)),
    );
    expect(wantedRows).toEqual([expect.objectContaining({ eventId: event, attempt: 1, status: "pending" })]);
    expect(others.flat()).toEqual([]);
    expect(await attemptsOf(b, otherAccount.id)).toEqual([]);
    const [stored] = await database.db.select().from(events).where(eq(events.id, event));
    expect(stored?.dispatchedAt).not.toBeNull();
  });
});

describe("claiming", () => {
  it("sends an event stored before API keys with api_key_id null, and a stored api_key_id as stored", async () => {
    const { accountId, sub } = await queued(1);
    const at = new Date().toISOString();
    const keyed = newIdAt("evt", at);
    const KEY = "key_01JQ3V0B7ZQ5M8E4W2T6Y9R1KD";
    await database.db.insert(events).values({
      accountId,
      id: keyed,
      type: "return.created",
      createdAt: at,
      payload: { id: keyed, type: "return.created", created_at: at, api_key_id: KEY, data: { object: {} } },
    });
    while ((await fanOut(database)).events > 0);
    const claimed = (await createDeliveryStore(database, "keys").claim(100, 4, LEASE)).filter(
      (c) => c.subscriptionId === sub.id,
    );
    const keyOf = (c: (typeof claimed)[number]) => (c.payload as { api_key_id: unknown }).api_key_id;
    expect(claimed.map((c) => [c.eventId === keyed, keyOf(c)]).sort()).toEqual([
      [false, null],
      [true, KEY],
    ]);
  });

  it("keeps at most `perSubscription` attempts of a subscription in flight, across dispatchers", async () => {
    const { sub } = await queued(6);
    const one = createDeliveryStore(database, "one");
    const two = createDeliveryStore(database, "two");
    const first = (await one.claim(100, 4, LEASE)).filter((c) => c.subscriptionId === sub.id);
    const second = (await two.claim(100, 4, LEASE)).filter((c) => c.subscriptionId === sub.id);
    expect(first).toHaveLength(4);
    expect(second).toHaveLength(0);
  });

  it("does not let one subscription's backlog hold up the others", async () => {
    // Lease whatever earlier tests left due, so only this test's attempts compete.
    await createDeliveryStore(database, "janitor").claim(1000, 1000, LEASE);
    const busy = await queued(20);
    const quiet = await queued(1);
    const one = createDeliveryStore(database, "one");
    const two = createDeliveryStore(database, "two");
    expect((await one.claim(4, 4, LEASE)).map((c) => c.subscriptionId)).toEqual(Array(4).fill(busy.sub.id));
    // The busy subscription has 16 older attempts due, but no free slot.
    expect((await two.claim(1, 4, LEASE)).map((c) => c.subscriptionId)).toEqual([quiet.sub.id]);
  });

  it("never hands the same attempt to two dispatchers", async () => {
    await queued(10);
    await queued(10);
    const stores = [0, 1, 2].map((i) => createDeliveryStore(database, `racer-${i}`));
    const claimed = (await Promise.all(stores.map((s) => s.claim(10, 100, LEASE)))).flat().map((c) => c.id);
    expect(new Set(claimed).size).toBe(claimed.length);
  });

  it("gives an attempt whose lease ran out to another dispatcher, and fences the first one off", async () => {
    const { accountId, sub } = await queued(1);
    const dying = createDeliveryStore(database, "dying");
    const rescuer = createDeliveryStore(database, "rescuer");
    const [lost] = (await dying.claim(100, 100, 50)).filter((c) => c.subscriptionId === sub.id);
    expect(lost).toBeDefined();
    await sleep(120);
    const [taken] = (await rescuer.claim(100, 100, LEASE)).filter((c) => c.subscriptionId === sub.id);
    expect(taken?.id).toBe(lost?.id);
    expect(await dying.record(lost!, { ok: true, status: 200, durationMs: 5 }, policy)).toBe("lease_lost");
    expect(await rescuer.record(taken!, { ok: true, status: 200, durationMs: 5 }, policy)).toBe("succeeded");
    expect((await attemptsOf(accountId, sub.id)).map((r) => [r.attempt, r.status])).toEqual([
      [1, "succeeded"],
    ]);
  });

  it("signs with the previous secret too for 24 h after a rotation", async () => {
    const { accountId, sub } = await queued(1);
    const rotated = await createSubscriptionStore(database).rotateSecret(accountId, sub.id);
    const store = createDeliveryStore(database, "rotation");
    const [claimed] = (await store.claim(100, 100, LEASE)).filter((c) => c.subscriptionId === sub.id);
    expect(claimed?.secrets).toEqual([rotated?.secret, sub.secret]);
    await store.release(claimed!);
    await database.db
      .update(webhookSubscriptions)
      .set({ previousSecretExpiresAt: sql`now() - interval '1 second'` })
      .where(eq(webhookSubscriptions.id, sub.id));
    const [again] = (await store.claim(100, 100, LEASE)).filter((c) => c.subscriptionId === sub.id);
    expect(again?.secrets).toEqual([rotated?.secret]);
  });
});

describe("recording attempts", () => {
  it("schedules each retry as a new attempt, then gives up when the schedule is spent", async () => {
    const { accountId, sub } = await queued(1);
    const store = createDeliveryStore(database, "retrier");
    const fail = { ok: false as const, status: 500, error: "HTTP 500 Internal Server Error", durationMs: 3 };
    const quick: RecordPolicy = { ...policy, schedule: [0, 0] };
    const outcomes: string[] = [];
    for (let i = 0; i < 3; i++) {
      const [claimed] = (await store.claim(100, 100, LEASE)).filter((c) => c.subscriptionId === sub.id);
      outcomes.push(await store.record(claimed!, fail, quick));
    }
    expect(outcomes).toEqual(["retry", "retry", "failed"]);
    const rows = await attemptsOf(accountId, sub.id);
    expect(rows.map((r) => [r.attempt, r.status, r.responseStatus, r.nextAttemptAt === null])).toEqual([
      [1, "failed", 500, false],
      [2, "failed", 500, false],
      [3, "failed", 500, true],
    ]);
  });

  it("waits the scheduled delay, give or take 10 % jitter, before a retry", async () => {
    const { accountId, sub } = await queued(1);
    const store = createDeliveryStore(database, "delayer");
    const [claimed] = (await store.claim(100, 100, LEASE)).filter((c) => c.subscriptionId === sub.id);
    const now = new Date();
    await store.record(claimed!, { ok: false, error: "timeout", durationMs: 10_000 }, policy, now);
    const [, next] = await attemptsOf(accountId, sub.id);
    const delay = new Date(next!.nextAttemptAt!).getTime() - now.getTime();
    expect(delay).toBeGreaterThanOrEqual(900);
    expect(delay).toBeLessThanOrEqual(1100);
    expect((await store.claim(100, 100, LEASE)).filter((c) => c.subscriptionId === sub.id)).toEqual([]);
  });

  it("disables a subscription after a long failure streak, and a success resets the streak", async () => {
    const { accountId, sub } = await queued(4);
    const store = createDeliveryStore(database, "streak");
    const strict: RecordPolicy = { schedule: [60_000], disableAfterFailures: 2, disableAfterMs: 0 };
    const claimed = (await store.claim(100, 100, LEASE)).filter((c) => c.subscriptionId === sub.id);
    const [a, b, c] = claimed;
    await store.record(a!, { ok: false, status: 500, error: "HTTP 500", durationMs: 1 }, strict);
    await store.record(b!, { ok: true, status: 200, durationMs: 1 }, strict);
    await store.record(c!, { ok: false, status: 500, error: "HTTP 500", durationMs: 1 }, strict);
    expect((await createSubscriptionStore(database).get(accountId, sub.id))?.status).toBe("enabled");
    await store.record(claimed[3]!, { ok: false, status: 502, error: "HTTP 502", durationMs: 1 }, strict);
    const after = await createSubscriptionStore(database).get(accountId, sub.id);
    expect(after).toMatchObject({ status: "disabled", disabledReason: "failing" });
    const rows = await attemptsOf(accountId, sub.id);
    expect(rows.filter((r) => r.status === "pending")).toEqual([]);
    expect(rows.filter((r) => r.nextAttemptAt !== null)).toEqual([]);
  });

  it("drops the attempts not yet made when the subscription is deleted", async () => {
    const { accountId, sub } = await queued(3);
    expect(await createSubscriptionStore(database).remove(accountId, sub.id)).toBe(true);
    expect(await attemptsOf(accountId, sub.id)).toEqual([]);
    const claimed = await createDeliveryStore(database, "after-delete").claim(100, 100, LEASE);
    expect(claimed.filter((c) => c.subscriptionId === sub.id)).toEqual([]);
  });
});
