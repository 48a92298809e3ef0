// docs/decisions/021: the feeds read from a streaming replica never skip an item. Replay on the
// replica is held back (pg_wal_replay_pause) while writes commit on the primary, the pause issued
// while the first of them are still being applied: the feed served through the replica shows a prefix of what the
// primary committed, never an item past a hole, and after replay resumes the same cursor goes on
// with exactly the rest, in order.
import postgres from "postgres";
import { afterEach, describe, expect, it } from "vitest";
import type { Api, Json } from "../src/client.ts";
import { order } from "../src/fixtures.ts";
import { type Client, succeeded, useSystem } from "../src/harness.ts";
import { FINAL, waitFor } from "../src/poll.ts";
import { targets } from "../src/targets.ts";

type Sql = ReturnType<typeof postgres>;

const replicated = targets.filter((t) => t.readReplica);

/** Every order of the feed after `cursor`, in feed order, and the cursor it ends at. */
async function drain(c: Client, cursor?: string): Promise<{ ids: string[]; cursor: string }> {
  const ids: string[] = [];
  let next = cursor;
  for (;;) {
    const res = await c.get(`/orders?limit=200${next ? `&cursor=${encodeURIComponent(next)}` : ""}`);
    expect(res.status, res.text).toBe(200);
    ids.push(...res.body.data.map((o: Json) => o.external_id));
    next = res.body.next_cursor as string;
    if (!res.body.has_more) return { ids, cursor: next };
  }
}

/** Final on the primary (GET /requests/{id} reads it), whatever the replica shows. */
async function finalOnPrimary(c: Api, requestId: string): Promise<void> {
  await waitFor(async () => {
    const res = await c.get(`/requests/${requestId}`);
    expect(res.status, res.text).toBe(200);
    return FINAL.has(res.body.status) ? true : undefined;
  }, `request ${requestId} to be final`);
}

async function replayPaused(replica: Sql): Promise<void> {
  await replica`select pg_wal_replay_pause()`;
  await waitFor(async () => {
    const [row] = await replica`select pg_get_wal_replay_pause_state() as state`;
    return row?.state === "paused" ? true : undefined;
  }, "replay on the replica to pause");
}

if (replicated.length === 0) {
  describe.skip("read replica — needs OISR_REPLICA_URL (scripts/replica.sh) and DATABASE_URL", () => {
    it("holds replay back", () => {});
  });
}

describe.each(replicated)("read replica — $name", (target) => {
  const h = useSystem(target);
  let replica: Sql | undefined;
  afterEach(async () => {
    // Replay is paused for the whole replica, every database on it: never leave it so.
    if (!replica) return;
    await replica`select pg_wal_replay_resume()`.catch(() => {});
    await replica.end();
    replica = undefined;
  });

  it("a feed read while replay is held back shows a prefix of the primary's commits; resumed, the same cursor goes on with exactly the rest", async () => {
    const c = await h.account();
    const url = h.system.replicaUrl;
    if (!url) throw new Error("the target names no replica");
    replica = postgres(url, { max: 1, onnotice: () => {} });

    const first = order();
    succeeded(await c.ingestAndWait("/ingest/orders", { orders: [first] }));
    const start = await drain(c);
    expect(start.ids).toEqual([first.external_id]);

    // Forty one-order calls sent at once, each applied and committed on its own or with others;
    // replay stops as soon as the first is applied, wherever the others' commits are then, not
    // at a boundary the test chose.
    const inFlight = Array.from({ length: 40 }, () => order());
    const accepted = Promise.all(
      inFlight.map(
        async (o) => (await c.ingest("/ingest/orders", { orders: [o] })).body.request_id as string,
      ),
    );
    const [head] = await accepted;
    if (head) await finalOnPrimary(c, head);
    await replayPaused(replica);
    // And ten more that commit on the primary after the pause: held back for certain.
    const after = Array.from({ length: 10 }, () => order());
    const acceptedAfter: string[] = [];
    for (const o of after)
      acceptedAfter.push((await c.ingest("/ingest/orders", { orders: [o] })).body.request_id);
    for (const id of [...(await accepted), ...acceptedAfter]) await finalOnPrimary(c, id);

    // Everything is committed on the primary (its lookups find the last order)…
    const last = after.at(-1)?.external_id as string;
    expect((await c.get(`/orders/${last}`)).status).toBe(200);
    // …while the feed, read from the held replica, shows only what it had replayed, twice the same.
    const held = await drain(c, start.cursor);
    expect((await drain(c, start.cursor)).ids).toEqual(held.ids);
    expect(held.ids).not.toContain(last);
    // The replica is reported, still ready, and behind.
    const ready = await fetch(`${h.system.origin}/readyz`);
    expect(ready.status).toBe(200);
    const readiness = (await ready.json()) as Json;
    expect(readiness.read_replica.status).toBe("reachable");
    expect(readiness.read_replica.lag_seconds).toBeGreaterThan(0);

    await replica`select pg_wal_replay_resume()`;
    // Caught up: the feed from the start has every order once…
    const all = await waitFor(async () => {
      const read = await drain(c, start.cursor);
      return read.ids.length === inFlight.length + after.length ? read : undefined;
    }, "the replica to catch up");
    expect(new Set(all.ids)).toEqual(new Set([...inFlight, ...after].map((o) => o.external_id)));
    // …and what the held replica showed was its beginning: no item past a hole.
    expect(all.ids.slice(0, held.ids.length)).toEqual(held.ids);
    // The cursor taken while replay was held goes on with exactly the rest: nothing skipped.
    const rest = await drain(c, held.cursor);
    expect([...held.ids, ...rest.ids]).toEqual(all.ids);
  });
});
