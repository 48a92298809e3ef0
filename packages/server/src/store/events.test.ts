// The events feed on a real database (PGlite, or PostgreSQL when DATABASE_URL is set): events as
// writeChanges stores them, read back in feed order, filtered, cut at the retention; and, on
// PostgreSQL, the commit-order guarantee with two writers in flight at once.
import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { events } from "../db/schema.ts";
import { createEventStore, type EventStore, type OutboxEvent } from "../outbox/index.ts";
import type { Services } from "../services.ts";
import { useFreshServices } from "../test-services.ts";
import { type BatchChanges, writeChanges } from "./changes.ts";
import { newId, newIdAt } from "./ids.ts";

const DAY = 86_400_000;
const RETENTION_DAYS = 30;
const RETENTION = RETENTION_DAYS * DAY;
const NOTHING: BatchChanges = { orders: [], returns: [], shipments: [], inventory: [] };

let services: Services;
let store: EventStore;
useFreshServices((s) => {
  services = s;
  store = createEventStore(s.database, RETENTION_DAYS);
});

const account = async () => (await services.accounts.createAccount("events-test")).account_id;

const KEY_ID = "key_01JQ3V0B7ZQ5M8E4W2T6Y9R1KD";
const outbox = (...types: string[]): OutboxEvent[] =>
  types.map((type, n) => ({ type, object: { id: `ret_${n}`, n }, apiKeyId: KEY_ID }));

/** Writes events as the worker's apply stage does, in a transaction of their own. */
async function write(accountId: string, batch: OutboxEvent[], now = new Date()): Promise<void> {
  await services.database.db.transaction((tx) =>
    writeChanges(tx, accountId, NOTHING, batch, now.toISOString()),
  );
}

const ids = (rows: { body: unknown }[]) => rows.map((r) => (r.body as { id: string }).id);
const types = (rows: { body: unknown }[]) => rows.map((r) => (r.body as { type: string }).type);

describe("the events feed store", () => {
  it("lists an account's events oldest first, each at its own position, as the webhook body", async () => {
    const a = await account();
    await write(a, outbox("return.created", "return.updated"));
    await write(a, outbox("return.completed"));
    const rows = await store.feed(a, {}, 0, 10);
    expect(types(rows)).toEqual(["return.created", "return.updated", "return.completed"]);
    const seqs = rows.map((r) => r.seq);
    expect(seqs).toEqual([...seqs].sort((x, y) => x - y));
    expect(new Set(seqs).size).toBe(3);
    // The body is the stored payload, the bytes webhook deliveries send.
    const [stored] = await services.database.db
      .select({ payload: events.payload })
      .from(events)
      .where(eq(events.id, ids(rows)[0] as string));
    expect(rows[0]?.body).toEqual(stored?.payload);
    expect(rows[0]?.body).toEqual({
      id: expect.stringMatching(/^evt_/),
      type: "return.created",
      created_at: expect.any(String),
      // The key of the request whose apply wrote it.
      api_key_id: KEY_ID,
      data: { object: { id: "ret_0", n: 0 } },
    });
    // After a position: only what came later; `limit` bounds the page.
    expect(ids(await store.feed(a, {}, seqs[0] as number, 10))).toEqual(ids(rows).slice(1));
    expect(ids(await store.feed(a, {}, 0, 2))).toEqual(ids(rows).slice(0, 2));
  });

  it("filters by one or several types and by created_since", async () => {
    const a = await account();
    await write(a, outbox("return.created"), new Date(Date.now() - 2 * DAY));
    await write(a, outbox("return.updated", "return.completed"));
    expect(types(await store.feed(a, { type: "return.updated" }, 0, 10))).toEqual(["return.updated"]);
    expect(types(await store.feed(a, { type: "return.completed,return.created" }, 0, 10))).toEqual([
      "return.created",
      "return.completed",
    ]);
    const since = new Date(Date.now() - DAY).toISOString();
    expect(types(await store.feed(a, { created_since: since }, 0, 10))).toEqual([
      "return.updated",
      "return.completed",
    ]);
  });

  it("leaves out webhook.test events, other accounts' events and events past the retention", async () => {
    const [a, b] = [await account(), await account()];
    const pastRetention = new Date(Date.now() - RETENTION - 60_000);
    // The server makes partitions around now only; the old day gets its own (decision 020).
    await services.database.rows(
      sql`select oisr_ensure_table_partitions('events', ${pastRetention.toISOString()}::timestamptz,
                                              ${pastRetention.toISOString()}::timestamptz + interval '1 ms', interval '1 day')`,
    );
    await write(a, outbox("return.created"), pastRetention);
    await write(b, outbox("return.created"));
    const now = new Date().toISOString();
    const testId = newIdAt("evt", now);
    // As enqueueTest (webhooks/sql/subscriptions.ts) stores one: no feed position.
    await services.database.db.insert(events).values({
      accountId: a,
      id: testId,
      type: "webhook.test",
      payload: { id: testId, type: "webhook.test", created_at: now, data: { object: {} } },
      createdAt: now,
      dispatchedAt: now,
    });
    await write(a, outbox("return.updated"));
    const rows = await store.feed(a, {}, 0, 10);
    expect(types(rows)).toEqual(["return.updated"]);

    const [old] = await services.database.db
      .select({ id: events.id })
      .from(events)
      .where(eq(events.accountId, a))
      .orderBy(events.seq)
      .limit(1);
    expect(await store.get(a, old?.id as string)).toBeUndefined();
    expect(await store.get(a, testId)).toBeUndefined();
    const [bEvent] = ids(await store.feed(b, {}, 0, 10));
    expect(await store.get(a, bEvent as string)).toBeUndefined();
    expect(await store.get(b, bEvent as string)).toMatchObject({ id: bEvent, type: "return.created" });
  });

  it("events share the account's one position sequence with orders and returns, without collisions", async () => {
    const a = await account();
    const now = new Date().toISOString();
    const ret = { id: newId("ret"), external_id: "R-1", status: "requested", updated_at: now, order_id: "o" };
    await services.database.db.transaction((tx) =>
      writeChanges(tx, a, { ...NOTHING, returns: [ret] }, outbox("return.created", "return.updated"), now),
    );
    const returnsFeed = await services.resources.returnFeed(a, {}, 0, 10);
    const eventSeqs = (await store.feed(a, {}, 0, 10)).map((r) => r.seq);
    expect(eventSeqs).toHaveLength(2);
    expect(eventSeqs).not.toContain(returnsFeed[0]?.seq);
  });
});

describe.runIf(process.env.DATABASE_URL)("the events feed under concurrent writers (PostgreSQL)", () => {
  it("a writer that took its position first and commits last is never read past", async () => {
    const a = await account();
    let release!: () => void;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let positioned!: () => void;
    const firstPositioned = new Promise<void>((resolve) => {
      positioned = resolve;
    });
    const { db } = services.database;
    const first = db.transaction(async (tx) => {
      await writeChanges(tx, a, NOTHING, outbox("return.created"), new Date().toISOString());
      positioned();
      await held;
    });
    await firstPositioned;
    let secondCommitted = false;
    const second = db
      .transaction((tx) => writeChanges(tx, a, NOTHING, outbox("return.updated"), new Date().toISOString()))
      .then(() => {
        secondCommitted = true;
      });
    await new Promise((resolve) => setTimeout(resolve, 200));
    // With the global bigserial, the second could commit now and a poller would store a cursor past
    // the first's lower number. Under the account lock it waits, and the poller sees nothing yet.
    expect(secondCommitted).toBe(false);
    expect(await store.feed(a, {}, 0, 10)).toEqual([]);
    release();
    await Promise.all([first, second]);
    expect(types(await store.feed(a, {}, 0, 10))).toEqual(["return.created", "return.updated"]);
  });

  it("a poller storing its cursor while 8 writers commit 40 transactions sees every event exactly once", async () => {
    const a = await account();
    const { db } = services.database;
    let done = false;
    // Fewer writers than pool connections, so the poller always has one and reads between commits.
    const writers = Array.from({ length: 8 }, async () => {
      for (let round = 0; round < 5; round++) {
        await db.transaction(async (tx) => {
          await writeChanges(
            tx,
            a,
            NOTHING,
            outbox("return.created", "return.updated"),
            new Date().toISOString(),
          );
          // Commit at a random later moment, so positions and commits interleave across writers.
          await new Promise((resolve) => setTimeout(resolve, Math.random() * 15));
        });
      }
    });
    const seen: string[] = [];
    const poller = (async () => {
      let after = 0;
      for (;;) {
        const finished = done;
        const rows = await store.feed(a, {}, after, 7);
        seen.push(...ids(rows));
        after = rows.at(-1)?.seq ?? after;
        if (finished && rows.length === 0) return;
        await new Promise((resolve) => setTimeout(resolve, 1));
      }
    })();
    await Promise.all(writers);
    done = true;
    await poller;
    const all = ids(await store.feed(a, {}, 0, 200));
    expect(all).toHaveLength(80);
    expect(seen).toEqual(all);
  });
});
