// Migration 0015 converts `events` and `webhook_deliveries` in place into tables partitioned by
// created_at, the time of the row's id (decision 020). A database is migrated to 0014 and given
// rows through the schema of before (events whose created_at the writer set a few milliseconds off
// their id's time, as before 0015, delivered, failed and pending attempts, a test event, one event
// and its attempt past retention), then opened by the server, which applies 0015: every row must
// read back through the stores, the fan-out order go on, a pending attempt still be claimed and the
// first retention pass drop the old range of both tables. PGlite on disk, or PostgreSQL with
// DATABASE_URL.
import { DAY_MS } from "@oisr/contract";
import { ulid } from "ulidx";
import { expect, it } from "vitest";
import { openServices } from "../services.ts";
import { createDeliveryStore } from "../webhooks/sql/attempts.ts";
import { sql } from "./client.ts";
import { databaseAtMigration } from "./migration-test-support.ts";

const before = databaseAtMigration(14);

const now = Date.now();
const at = (ms: number) => new Date(ms).toISOString();
const ev = (ms: number) => ({ id: `evt_${ulid(ms)}`, ms });
const old = ev(now - 40 * DAY_MS);
const delivered = ev(now - 2 * DAY_MS);
const pendingEvent = ev(now - 60_000);
const testEvent = ev(now - 30_000);
const whd = (ms: number) => `whd_${ulid(ms)}`;
const oldAttempt = whd(old.ms + 1000);
const deliveredAttempt = whd(delivered.ms + 1000);
const failedAttempt = whd(pendingEvent.ms + 1000);
const retryAttempt = whd(pendingEvent.ms + 5000);
const body = (e: { id: string; ms: number }, type = "return.created") =>
  JSON.stringify({ id: e.id, type, created_at: at(e.ms), data: { object: { id: "ret_1" } } });

// created_at a few ms after the id's time, as writers set it before 0015 (the stage's clock).
const oldRows = `
  insert into accounts (id, name, feed_seq) values ('acc_old', 'old', 3);
  insert into webhook_subscriptions (account_id, id, url, events, secret, created_at, updated_at)
  values ('acc_old', 'whs_1', 'https://hooks.example.com/x', '{return.created}', 'whsec_x', '${at(now - 50 * DAY_MS)}', '${at(now - 50 * DAY_MS)}');
  insert into events (account_id, id, feed_seq, type, payload, created_at, dispatched_at) values
    ('acc_old', '${old.id}', 1, 'return.created', '${body(old)}', '${at(old.ms + 3)}', '${at(old.ms + 500)}'),
    ('acc_old', '${delivered.id}', 2, 'return.created', '${body(delivered)}', '${at(delivered.ms + 3)}', '${at(delivered.ms + 500)}'),
    ('acc_old', '${pendingEvent.id}', 3, 'return.created', '${body(pendingEvent)}', '${at(pendingEvent.ms + 3)}', '${at(pendingEvent.ms + 500)}'),
    ('acc_old', '${testEvent.id}', null, 'webhook.test', '${body(testEvent, "webhook.test")}', '${at(testEvent.ms + 3)}', '${at(testEvent.ms)}');
  insert into webhook_deliveries (account_id, id, subscription_id, event_id, event_type, attempt, status, next_attempt_at, attempted_at, created_at) values
    ('acc_old', '${oldAttempt}', 'whs_1', '${old.id}', 'return.created', 1, 'succeeded', null, '${at(old.ms + 1000)}', '${at(old.ms + 1002)}'),
    ('acc_old', '${deliveredAttempt}', 'whs_1', '${delivered.id}', 'return.created', 1, 'succeeded', null, '${at(delivered.ms + 1000)}', '${at(delivered.ms + 1002)}'),
    ('acc_old', '${failedAttempt}', 'whs_1', '${pendingEvent.id}', 'return.created', 1, 'failed', '${at(pendingEvent.ms + 5000)}', '${at(pendingEvent.ms + 1000)}', '${at(pendingEvent.ms + 1002)}'),
    ('acc_old', '${retryAttempt}', 'whs_1', '${pendingEvent.id}', 'return.created', 2, 'pending', '${at(now - 1000)}', null, '${at(pendingEvent.ms + 5002)}');`;

it("keeps every event and attempt of before, in the partition of its id's day, readable through the stores", async () => {
  const services = await openServices(await before.open(oldRows));
  before.onCleanup(() => services.database.close());
  const { database } = services;

  const kinds = await database.rows<{ relname: string; kind: string }>(
    sql`select relname, relkind::text as kind from pg_class
         where relname in ('events', 'webhook_deliveries', 'events_unpartitioned', 'webhook_deliveries_unpartitioned')
         order by relname`,
  );
  expect(kinds).toEqual([
    { relname: "events", kind: "p" },
    { relname: "webhook_deliveries", kind: "p" },
  ]);
  // created_at became the id's time, so a lookup by id finds each row in one partition.
  const [skew] = await database.rows<{ n: string | number }>(
    sql`select (select count(*) from events where created_at <> oisr_ulid_time(id))
             + (select count(*) from webhook_deliveries where created_at <> oisr_ulid_time(id)) as n`,
  );
  expect(Number(skew?.n)).toBe(0);
  const day = (ms: number) => new Date(ms).toISOString().slice(0, 10).replaceAll("-", "");
  const [placed] = await database.rows<{ p: string }>(
    sql`select tableoid::regclass::text as p from events where id = ${delivered.id}`,
  );
  expect(placed?.p).toBe(`events_p${day(delivered.ms)}_000000`);

  // GET /events/{id} and the feed read them as before (the body as stored); a test event stays unlisted.
  expect(await services.events.get("acc_old", delivered.id)).toMatchObject({
    id: delivered.id,
    created_at: at(delivered.ms),
  });
  expect(await services.events.get("acc_old", testEvent.id)).toBeUndefined();
  const feed = await services.events.feed("acc_old", {}, 0, 10);
  expect(feed.map((r) => r.seq)).toEqual([2, 3]);
  // The deliveries log, newest first.
  const log = await services.webhookDeliveries.list("acc_old", "whs_1", null, 10);
  expect(log.map((d) => d.id)).toEqual([retryAttempt, failedAttempt, deliveredAttempt, oldAttempt]);

  // The pending attempt of before is claimed and carries its event's body.
  const store = createDeliveryStore(database, "migrated");
  const claimed = await store.claim(10, 5, 30_000);
  expect(claimed.map((c) => [c.id, c.eventId])).toEqual([[retryAttempt, pendingEvent.id]]);
  expect(claimed[0]?.payload).toMatchObject({ id: pendingEvent.id });

  // The fan-out order (events.seq) goes on from the old table's sequence.
  const subscription = await services.webhookSubscriptions.get("acc_old", "whs_1");
  if (!subscription) throw new Error("the subscription is gone");
  await services.webhookSubscriptions.enqueueTest("acc_old", subscription, "0".repeat(32), null);
  const seqs = await database.rows<{ seq: string | number }>(sql`select seq from events order by seq`);
  expect(new Set(seqs.map((s) => Number(s.seq))).size).toBe(5);

  // The first pass drops the old day of both tables and nothing younger.
  const pass = await services.retention.run();
  expect(pass.tables.events.dropped).toEqual([`events_p${day(old.ms)}_000000`]);
  expect(pass.tables.webhook_deliveries.dropped).toEqual([`webhook_deliveries_p${day(old.ms)}_000000`]);
  const [left] = await database.rows<{ e: string | number; d: string | number }>(
    sql`select (select count(*) from events) as e, (select count(*) from webhook_deliveries) as d`,
  );
  expect([Number(left?.e), Number(left?.d)]).toEqual([4, 4]);
  // initdb and fifteen migrations in WebAssembly on a disk directory: tens of seconds on a busy machine.
}, 180_000);
