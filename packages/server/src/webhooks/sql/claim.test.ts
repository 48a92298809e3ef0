// The claim under a deep backlog and several dispatchers (claim.ts), on a real database (PGlite,
// or PostgreSQL when DATABASE_URL is set: there the dispatchers' claims really run at once).
import { and, eq, isNotNull, sql } from "drizzle-orm";
import pino from "pino";
import { describe, expect, it } from "vitest";
import { configWith } from "../../config.ts";
import { EVENTS_CHANNEL } from "../../db/channels.ts";
import type { Database } from "../../db/client.ts";
import { webhookDeliveries } from "../../db/webhook-schema.ts";
import { insertReturnEvents } from "../../outbox/test-support.ts";
import { newId } from "../../store/ids.ts";
import { startDispatcher } from "../dispatcher.ts";
import type { WebhookSender } from "../http-sender.ts";
import { sleep, useFreshDatabase, waitFor } from "../test-support.ts";
import { createDeliveryStore, type RecordPolicy } from "./attempts.ts";
import { fanOut } from "./fan-out.ts";
import { createSubscriptionStore } from "./subscriptions.ts";

let database: Database;
useFreshDatabase((opened) => {
  database = opened;
});

const policy: RecordPolicy = { schedule: [1000], disableAfterFailures: 1000, disableAfterMs: 0 };
const LEASE = 60_000;
const ok = { ok: true as const, status: 204, durationMs: 1 };

/** A new account with one subscription and `count` events fanned out to it (one insert). */
async function queued(count: number, url = "http://127.0.0.1:9/unused") {
  const accountId = newId("acc");
  const sub = await createSubscriptionStore(database).create(accountId, {
    url,
    events: ["return.created"],
  });
  await sleep(2);
  if (count === 0) return { accountId, sub };
  await insertReturnEvents(database, accountId, count);
  while ((await fanOut(database)).events > 0);
  return { accountId, sub };
}

async function leasedOf(subscriptionId: string): Promise<number> {
  const rows = await database.db
    .select({ id: webhookDeliveries.id })
    .from(webhookDeliveries)
    .where(
      and(
        eq(webhookDeliveries.subscriptionId, subscriptionId),
        eq(webhookDeliveries.status, "pending"),
        isNotNull(webhookDeliveries.leaseOwner),
        sql`${webhookDeliveries.leaseUntil} >= now()`,
      ),
    );
  return rows.length;
}

describe("claim", () => {
  it("gives every subscription its turn while one has a backlog 100 times deeper", async () => {
    const busy = await queued(400);
    const quiet = [];
    for (let i = 0; i < 5; i++) quiet.push(await queued(1));
    const store = createDeliveryStore(database, "fair");
    // The busy subscription's 400 attempts are all older than the quiet ones' and due.
    const claimed = await store.claim(9, 4, LEASE);
    const bySubscription = new Map<string, number>();
    for (const c of claimed)
      bySubscription.set(c.subscriptionId, (bySubscription.get(c.subscriptionId) ?? 0) + 1);
    expect(bySubscription.get(busy.sub.id)).toBe(4);
    for (const q of quiet) expect(bySubscription.get(q.sub.id)).toBe(1);
    for (const c of claimed) await store.record(c, ok, policy);
    // The next claim goes on with the backlog, four at a time.
    expect((await store.claim(9, 4, LEASE)).map((c) => c.subscriptionId)).toEqual(Array(4).fill(busy.sub.id));
  });

  it("never has more than perSubscription attempts leased when two dispatchers claim at once", async () => {
    const { sub } = await queued(40);
    const stores = [createDeliveryStore(database, "left"), createDeliveryStore(database, "right")];
    let total = 0;
    for (let round = 0; round < 8; round++) {
      const claimed = (await Promise.all(stores.map((s) => s.claim(100, 3, LEASE)))).map((list) =>
        list.filter((c) => c.subscriptionId === sub.id),
      );
      const both = claimed.flat().length;
      expect(both).toBeLessThanOrEqual(3);
      expect(await leasedOf(sub.id)).toBe(both);
      total += both;
      // Each records what it claimed, freeing the slots for the next round.
      await Promise.all(
        claimed.map((list, i) => Promise.all(list.map((c) => stores[i]!.record(c, ok, policy)))),
      );
    }
    expect(total).toBeGreaterThanOrEqual(8);
  });
});

describe("two dispatchers", () => {
  it("keep one subscription at webhookSubscriptionConcurrency attempts in flight in all, and deliver every event once", async () => {
    const url = "http://127.0.0.1:9/two-dispatchers";
    const { accountId } = await queued(0, url);
    const config = configWith({ webhookAllowPrivateNetworks: true, webhookSubscriptionConcurrency: 2 });
    let inFlight = 0;
    let peak = 0;
    const sent: string[] = [];
    // Counts this subscription's attempts only (earlier tests' backlogs are sent too, elsewhere).
    const send: WebhookSender = async (to, headers) => {
      if (to !== url) return { ok: true, status: 204, durationMs: 1 };
      peak = Math.max(peak, ++inFlight);
      await sleep(15);
      inFlight--;
      sent.push(headers["webhook-id"] as string);
      return { ok: true, status: 204, durationMs: 15 };
    };
    const logger = pino({ level: "silent" });
    const dispatchers = await Promise.all(
      [0, 1].map(() => startDispatcher({ config, database, logger, send, maxInFlight: 8 })),
    );
    try {
      await insertReturnEvents(database, accountId, 30);
      await database.notify(EVENTS_CHANNEL, accountId);
      await waitFor(() => sent.length >= 30 || undefined, "30 deliveries", 20_000);
      expect(new Set(sent).size).toBe(30);
      expect(peak).toBeLessThanOrEqual(2);
      expect(peak).toBe(2);
    } finally {
      await Promise.all(dispatchers.map((d) => d.stop()));
    }
  });
});
