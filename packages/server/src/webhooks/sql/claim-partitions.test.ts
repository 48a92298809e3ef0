// The claim reads only the partitions from the oldest pending attempt's on (claim.ts, decision 024,
// session 15), on a real database (PGlite, or PostgreSQL when DATABASE_URL is set): an attempt left
// pending in an old partition (a receiver's long pause, dispatchers that were down) is still
// claimed, its lease still counts against the subscription's bound, and it is still due.
import { describe, expect, it } from "vitest";
import type { Database } from "../../db/client.ts";
import { newId } from "../../store/ids.ts";
import { useFreshDatabase } from "../test-support.ts";
import { createDeliveryStore, type RecordPolicy } from "./attempts.ts";
import { createSubscriptionStore } from "./subscriptions.ts";
import { pastHistory } from "./test-history.ts";

let database: Database;
useFreshDatabase((opened) => {
  database = opened;
});

const LEASE = 60_000;
const ok = { ok: true as const, status: 204, durationMs: 1 };
const policy: RecordPolicy = { schedule: [1000], disableAfterFailures: 1000, disableAfterMs: 0 };

const history = pastHistory(() => database);
const partitionsAt = history.partitionsAt;

/** An event and its attempt, both made `age` days ago; a pending attempt is due now. */
async function attemptAt(
  accountId: string,
  subscriptionId: string,
  age: number,
  status: "pending" | "succeeded" = "pending",
) {
  return history.attempt(accountId, subscriptionId, await history.event(accountId, age), age, status);
}

async function subscription(accountId: string) {
  return createSubscriptionStore(database).create(accountId, {
    url: "http://127.0.0.1:9/unused",
    events: ["return.created"],
  });
}

describe("claim across partitions", () => {
  it("claims an attempt left pending in an old partition, counts its lease, and reports it due", async () => {
    for (const age of [20, 5, 1]) await partitionsAt(age);
    const accountId = newId("acc");
    const [old, fresh] = [await subscription(accountId), await subscription(accountId)];
    // Delivered history between the old attempt and now, in partitions of its own.
    await attemptAt(accountId, old.id, 5, "succeeded");
    const oldest = await attemptAt(accountId, old.id, 20);
    const recent = await attemptAt(accountId, fresh.id, 1);
    const store = createDeliveryStore(database, "floor");

    expect(await store.nextDueInMs()).toBe(0);
    const first = await store.claim(10, 1, LEASE);
    expect(first.map((c) => c.id).sort()).toEqual([oldest, recent].sort());

    // Another attempt of the same subscription, in today's partition: the 20-day-old lease still
    // fills its one slot, so it waits.
    const newer = await attemptAt(accountId, old.id, 0);
    expect(await store.claim(10, 1, LEASE)).toEqual([]);
    const claimedOldest = first.find((c) => c.id === oldest);
    if (claimedOldest === undefined) throw new Error("the old attempt was not claimed");
    await store.record(claimedOldest, ok, policy);
    expect((await store.claim(10, 1, LEASE)).map((c) => c.id)).toEqual([newer]);
  });
});
