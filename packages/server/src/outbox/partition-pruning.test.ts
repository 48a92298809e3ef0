// `events` and `webhook_deliveries` are partitioned by created_at, the time of the row's id
// (decision 020): the plans of the lookups by id must read one partition, a join from an attempt
// to its event one partition per attempt, and the feed's first page a handful of rows whatever
// the partitions hold. PGlite, or PostgreSQL with DATABASE_URL.
import { DAY_MS } from "@oisr/contract";
import { beforeAll, expect, it } from "vitest";
import { sql } from "../db/client.ts";
import { explain, scans } from "../db/plan-test-support.ts";
import type { Services } from "../services.ts";
import { idTime, newIdAt } from "../store/ids.ts";
import { useFreshServices } from "../test-services.ts";
import { WEBHOOK_LAG } from "../webhooks/sql/history.ts";

let services: Services;
useFreshServices((s) => {
  services = s;
});

const plan = (statement: ReturnType<typeof sql>) => explain(services.database, statement);
const partitionOf = async (table: "events" | "webhook_deliveries", id: string) =>
  (
    await services.database.rows<{ p: string }>(
      sql`select tableoid::regclass::text as p from ${sql.identifier(table)} where id = ${id}`,
    )
  )[0]?.p;

const account = "acc_pruning";
const today = Date.now();
const yesterday = today - DAY_MS;
const PER_DAY = 1000;
const eventIds: string[] = [];
let attemptId = "";
let oldEventId = "";

beforeAll(async () => {
  // 2,000 events over two days (two partitions at 30 days' retention), positions in time order:
  // enough rows that the planner reads indexes rather than whole tables, as it would in service.
  for (let i = 0; i < PER_DAY * 2; i++) {
    const day = i < PER_DAY ? yesterday : today;
    eventIds.push(newIdAt("evt", day - 3_600_000 + (i % PER_DAY) * 1000));
  }
  await services.database.rows(
    sql`insert into events (account_id, id, feed_seq, type, payload, created_at, dispatched_at)
        select ${account}, e.id, e.n, 'return.created', jsonb_build_object('id', e.id), oisr_ulid_time(e.id), now()
          from jsonb_array_elements_text(${JSON.stringify(eventIds)}::jsonb) with ordinality as e(id, n)`,
  );
  oldEventId = eventIds[0] as string;
  // A pending attempt made today for an event of yesterday (a late retry).
  attemptId = newIdAt("whd", today - 1000);
  await services.database.rows(
    sql`insert into webhook_deliveries (account_id, id, subscription_id, event_id, event_type, attempt, status,
                                        next_attempt_at, created_at)
        values (${account}, ${attemptId}, 'whs_1', ${oldEventId}, 'return.created', 1, 'pending', now(),
                oisr_ulid_time(${attemptId}))`,
  );
  await services.database.rows(sql`analyze events`);
  await services.database.rows(sql`analyze webhook_deliveries`);
});

it("has the SQL and the server agree on an id's time", () => {
  const id = newIdAt("evt", "2026-11-27T21:00:00.123Z");
  expect(idTime(id)).toBe("2026-11-27T21:00:00.123Z");
  expect(idTime("evt_not-a-ulid")).toBeUndefined();
});

it("reads one partition for GET /events/{id} and for an attempt by id", async () => {
  const id = eventIds[3] as string;
  // As feed.ts get() asks: created_at is the id's time, computed by the server.
  const byId = await plan(
    sql`explain (format json) select payload from events
         where account_id = ${account} and id = ${id} and created_at = ${idTime(id) as string}
           and feed_seq is not null`,
  );
  expect(scans(byId).map((n) => n["Relation Name"])).toEqual([await partitionOf("events", id)]);
  expect(await services.events.get(account, id)).toMatchObject({ id });
  // As resend.ts and attempts.ts ask: created_at = oisr_ulid_time(id), in SQL.
  const attempt = await plan(
    sql`explain (format json) select event_id from webhook_deliveries
         where account_id = ${account} and id = ${attemptId} and created_at = oisr_ulid_time(${attemptId})`,
  );
  expect(scans(attempt).map((n) => n["Relation Name"])).toEqual([
    await partitionOf("webhook_deliveries", attemptId),
  ]);
});

it("joins an attempt to its event through the one partition the event id names", async () => {
  // The webhook-lag gauge's join (history.ts), the same as the dispatcher's claim.
  const lag = await plan(sql`explain (analyze, format json) ${WEBHOOK_LAG}`);
  const eventScans = scans(lag).filter(
    (n) => n["Relation Name"]?.startsWith("events_p") && (n["Actual Loops"] ?? 0) > 0,
  );
  const joined = eventScans.filter((n) => (n["Actual Rows"] ?? 0) > 0).map((n) => n["Relation Name"]);
  expect(joined).toEqual([await partitionOf("events", oldEventId)]);
});

it("reads a first page of the feed from a handful of rows, not every partition's", async () => {
  const cutoff = new Date(today - 30 * DAY_MS).toISOString();
  const page = await plan(
    sql`explain (analyze, format json) select feed_seq from events
         where account_id = ${account} and feed_seq > 0 and created_at >= ${cutoff}
         order by feed_seq limit 5`,
  );
  const read = scans(page);
  const rowsRead = read.reduce((sum, n) => sum + (n["Actual Rows"] ?? 0), 0);
  expect(rowsRead).toBeLessThanOrEqual(5 + read.length);
  expect(rowsRead).toBeLessThan(PER_DAY);
  const feed = await services.events.feed(account, {}, 0, 5);
  expect(feed.map((r) => r.seq)).toEqual([1, 2, 3, 4, 5]);
});
