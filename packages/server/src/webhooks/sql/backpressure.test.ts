// Receiver backpressure on a real database (PGlite, or PostgreSQL when DATABASE_URL is set): a 429
// or 503 with Retry-After pauses the whole subscription, and the deliveries log shows the wait.
// A database of its own, as nextDueInMs looks at every pending attempt.
import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import type { Database } from "../../db/client.ts";
import { events } from "../../db/schema.ts";
import { webhookDeliveries, webhookSubscriptions } from "../../db/webhook-schema.ts";
import { newId, newIdAt } from "../../store/ids.ts";
import { useFreshDatabase } from "../test-support.ts";
import { type AttemptResult, createDeliveryStore, type RecordPolicy } from "./attempts.ts";
import { fanOut } from "./fan-out.ts";
import { createSubscriptionStore } from "./subscriptions.ts";

let database: Database;
useFreshDatabase((opened) => {
  database = opened;
});

const policy: RecordPolicy = { schedule: [1000, 1000], disableAfterFailures: 1000, disableAfterMs: 0 };
const LEASE = 60_000;
const slowDown = (status: number, retryAfterSeconds?: number): AttemptResult => ({
  ok: false,
  status,
  error: `HTTP ${status}`,
  durationMs: 2,
  ...(retryAfterSeconds === undefined ? {} : { retryAfterSeconds }),
});
const ok: AttemptResult = { ok: true, status: 200, durationMs: 2 };

async function emit(accountId: string, count: number): Promise<void> {
  for (let i = 0; i < count; i++) {
    const createdAt = new Date().toISOString();
    const id = newIdAt("evt", createdAt);
    await database.db.insert(events).values({
      accountId,
      id,
      type: "return.created",
      createdAt,
      payload: { id, type: "return.created", created_at: createdAt, data: { object: {} } },
    });
  }
  while ((await fanOut(database)).events > 0);
}

/** A new account with one subscription and `count` events fanned out to it. */
async function queued(count: number) {
  const accountId = newId("acc");
  const sub = await createSubscriptionStore(database).create(accountId, {
    url: "https://hooks.example.com/x",
    events: ["return.created"],
  });
  await emit(accountId, count);
  const store = createDeliveryStore(database, `dispatcher-${sub.id}`);
  const claim = async (perSubscription = 1) =>
    (await store.claim(100, perSubscription, LEASE)).filter((c) => c.subscriptionId === sub.id);
  const attempts = async () =>
    (await database.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.subscriptionId, sub.id)))
      .filter((r) => r.accountId === accountId)
      .sort((a, b) => a.eventId.localeCompare(b.eventId) || a.attempt - b.attempt);
  const pausedUntil = async () => {
    const [row] = await database.rows<{ ms: string | number | null }>(
      sql`select extract(epoch from paused_until) * 1000 as ms from webhook_subscriptions where id = ${sub.id}`,
    );
    return row?.ms == null ? null : Number(row.ms);
  };
  /** Makes every attempt of the subscription due by its own time (as if the pause's wait had passed). */
  const makeDue = () =>
    database.rows(
      sql`update webhook_deliveries set next_attempt_at = now() - interval '1 second'
           where subscription_id = ${sub.id} and status = 'pending'`,
    );
  return { accountId, sub, store, claim, attempts, pausedUntil, makeDue };
}

const ms = (iso: string | null | undefined) => (iso ? new Date(iso).getTime() : Number.NaN);

describe("Retry-After on 429 and 503", () => {
  it("pauses the subscription: the retry, the other attempts not yet made and the dispatcher's sleep all wait for it", async () => {
    const q = await queued(3);
    const [first] = await q.claim();
    const now = new Date();
    expect(await q.store.record(first!, slowDown(429, 30), policy, now)).toBe("retry");
    const end = now.getTime() + 30_000;
    expect(await q.pausedUntil()).toBe(end);

    const rows = await q.attempts();
    const failed = rows.find((r) => r.id === first?.id);
    expect(failed).toMatchObject({ status: "failed", responseStatus: 429, retryAfterSeconds: 30 });
    // The schedule says 1 s; the receiver said 30 s.
    expect(ms(failed?.nextAttemptAt)).toBe(end);
    const pending = rows.filter((r) => r.status === "pending");
    expect(pending).toHaveLength(3); // the retry, and the two other events' first attempts
    for (const r of pending) {
      expect(ms(r.nextAttemptAt)).toBe(end);
      expect(r.retryAfterSeconds).toBeNull();
    }

    // The only subscription with pending attempts in this database: the dispatcher sleeps until the pause ends.
    const dueIn = await q.store.nextDueInMs();
    expect(dueIn).toBeGreaterThan(25_000);
    expect(dueIn).toBeLessThanOrEqual(30_000);

    // Due by their own time, still held back while the pause lasts; claimed once it is over.
    await q.makeDue();
    expect(await q.claim(4)).toEqual([]);
    await database.db
      .update(webhookSubscriptions)
      .set({ pausedUntil: sql`now() - interval '1 second'` })
      .where(eq(webhookSubscriptions.id, q.sub.id));
    expect(await q.claim(4)).toHaveLength(3);
  });

  it("reads a 503's Retry-After the same way, and caps a long one at an hour", async () => {
    const q = await queued(1);
    const [first] = await q.claim();
    const now = new Date();
    await q.store.record(first!, slowDown(503, 7200), policy, now);
    expect(await q.pausedUntil()).toBe(now.getTime() + 3_600_000);
    const [failed, retry] = await q.attempts();
    // The receiver's value is what the log shows; the wait is the capped one.
    expect(failed).toMatchObject({ responseStatus: 503, retryAfterSeconds: 7200 });
    expect(ms(failed?.nextAttemptAt)).toBe(now.getTime() + 3_600_000);
    expect(ms(retry?.nextAttemptAt)).toBe(now.getTime() + 3_600_000);
  });

  it("pauses even when the schedule is spent, so the subscription's other attempts wait", async () => {
    const q = await queued(2);
    const lastChance: RecordPolicy = { ...policy, schedule: [] };
    const [first] = await q.claim();
    const now = new Date();
    expect(await q.store.record(first!, slowDown(429, 20), lastChance, now)).toBe("failed");
    const rows = await q.attempts();
    expect(rows.find((r) => r.id === first?.id)?.nextAttemptAt).toBeNull();
    expect(rows.filter((r) => r.status === "pending").map((r) => ms(r.nextAttemptAt))).toEqual([
      now.getTime() + 20_000,
    ]);
  });

  it("holds back the retries of attempts that were in flight when the pause began, whatever they were answered", async () => {
    const q = await queued(3);
    const [a, b, c] = await q.claim(3);
    const now = new Date();
    await q.store.record(a!, slowDown(429, 30), policy, now);
    // Answered later with a plain 500: its retry comes after the pause, not after the 1 s step.
    await q.store.record(b!, slowDown(500), policy, new Date(now.getTime() + 100));
    // A shorter Retry-After does not shorten the pause either.
    await q.store.record(c!, slowDown(503, 5), policy, new Date(now.getTime() + 200));
    expect(await q.pausedUntil()).toBe(now.getTime() + 30_000);
    const retries = (await q.attempts()).filter((r) => r.status === "pending");
    expect(retries.map((r) => ms(r.nextAttemptAt))).toEqual(Array(3).fill(now.getTime() + 30_000));
  });

  it("a 2xx ends nothing early", async () => {
    const q = await queued(2);
    const [a, b] = await q.claim(2);
    const now = new Date();
    await q.store.record(a!, slowDown(429, 30), policy, now);
    expect(await q.store.record(b!, ok, policy, new Date(now.getTime() + 50))).toBe("succeeded");
    expect(await q.pausedUntil()).toBe(now.getTime() + 30_000);
  });

  it("makes a paused subscription's new deliveries due when the pause ends", async () => {
    const q = await queued(1);
    const [first] = await q.claim();
    const now = new Date();
    await q.store.record(first!, slowDown(429, 40), policy, now);
    const before = new Set((await q.attempts()).map((r) => r.id));
    await emit(q.accountId, 1);
    const fresh = (await q.attempts()).filter((r) => !before.has(r.id));
    expect(fresh).toEqual([expect.objectContaining({ attempt: 1, status: "pending" })]);
    expect(ms(fresh[0]?.nextAttemptAt)).toBe(now.getTime() + 40_000);
    expect(ms(fresh[0]?.createdAt)).toBeLessThan(now.getTime() + 5_000);
  });

  it("ignores a Retry-After of 0", async () => {
    const q = await queued(2);
    const [first] = await q.claim();
    const now = new Date();
    await q.store.record(first!, slowDown(429, 0), policy, now);
    expect(await q.pausedUntil()).toBeNull();
    const rows = await q.attempts();
    expect(rows.find((r) => r.id === first?.id)).toMatchObject({ retryAfterSeconds: 0 });
    expect(await q.claim(4)).toHaveLength(1); // the other event, due at once
  });
});
