// Retention by partition (decision 020) on the server's own schema: partitions made ahead, dropped
// once wholly past retention but never while they hold an open request, lookups that stay in one
// partition, and no row-by-row delete. PGlite, or PostgreSQL with DATABASE_URL.
import { DAY_MS } from "@oisr/contract";
import { beforeEach, expect, it } from "vitest";
import { sql } from "../db/client.ts";
import { explain, scans } from "../db/plan-test-support.ts";
import type { Services } from "../services.ts";
import { enqueueRequests, insertRequestAt, useFreshServices } from "../test-services.ts";
import { aheadMs, partitionIntervalMs } from "./plan.ts";
import { ensurePartitions } from "./retention.ts";

let services: Services;
useFreshServices((s) => {
  services = s;
});

// Tests run passes weeks ahead, which drop today's partitions; each test starts with them back,
// as the server's startup would make them.
beforeEach(async () => {
  await ensurePartitions(services.database, { now: new Date(), intervalMs: DAY_MS, behindMs: 2 * DAY_MS });
});

const ORDER = { kind: "orders", body: { orders: [{}] } };

const insertAt = (accountId: string, ms: number) => insertRequestAt(services, accountId, ms);

const partitionOf = async (id: string) =>
  (
    await services.database.rows<{ p: string }>(
      sql`select tableoid::regclass::text as p from requests where id = ${id}`,
    )
  )[0]?.p;

const partitions = (parent: string) =>
  services.database.rows<{ name: string; from_ms: number; to_ms: number }>(
    sql`select name, extract(epoch from from_at)::float8 * 1000 as from_ms, extract(epoch from to_at)::float8 * 1000 as to_ms
          from oisr_partitions where parent = ${parent} order by from_at`,
  );

it("picks a partition interval of at most a tenth of the retention and at most a day", () => {
  expect(partitionIntervalMs(30)).toBe(DAY_MS);
  expect(partitionIntervalMs(0.5)).toBe(3_600_000);
  expect(partitionIntervalMs(90 / 1440)).toBe(5 * 60_000);
  expect(partitionIntervalMs(10 / 1440)).toBe(60_000);
  expect(partitionIntervalMs(1 / 1440)).toBe(60_000);
});

it("makes partitions ahead of now, with no gap, for every partitioned table", async () => {
  const now = Date.now() + 10 * DAY_MS;
  const pass = await services.retention.run(new Date(now));
  expect(pass.ran).toBe(true);
  expect(pass.tables.requests.created).toBeGreaterThan(0);
  for (const parent of ["requests", "idempotency_keys", "events", "webhook_deliveries"]) {
    const list = await partitions(parent);
    const covering = list.filter((p) => p.to_ms > now);
    expect(covering[0]?.from_ms).toBeLessThanOrEqual(now);
    expect(covering.at(-1)?.to_ms).toBeGreaterThanOrEqual(now + aheadMs(DAY_MS));
    for (let i = 1; i < covering.length; i++) expect(covering[i]?.from_ms).toBe(covering[i - 1]?.to_ms);
  }
  // A second pass at the same time has nothing to make.
  expect((await services.retention.run(new Date(now))).tables.requests.created).toBe(0);
});

it("drops a partition once wholly past retention, never while it holds an open request, and keeps younger ones", async () => {
  const a = (await services.accounts.createAccount("retention")).account_id;
  const [finished] = await enqueueRequests(services, a, ORDER);
  const open = await insertAt(a, Date.now());
  const young = await insertAt(a, Date.now() + 2 * DAY_MS);
  await services.database.rows(
    sql`update requests set status = 'succeeded' where account_id = ${a} and id in (${finished}, ${young})`,
  );
  const todays = await partitionOf(finished as string);
  expect(await partitionOf(open)).toBe(todays);
  const later = new Date(Date.now() + 31 * DAY_MS + 60_000);

  const guarded = await services.retention.run(later);
  expect(guarded.tables.requests.kept_open).toContain(todays);
  expect(guarded.tables.requests.dropped).not.toContain(todays);
  expect(await services.requests.get(a, finished as string)).toBeDefined();

  await services.database.rows(
    sql`update requests set status = 'failed' where account_id = ${a} and id = ${open}`,
  );
  const dropped = await services.retention.run(later);
  expect(dropped.tables.requests.dropped).toContain(todays);
  expect(dropped.tables.requests.rows_dropped).toBeGreaterThanOrEqual(2);
  expect(dropped.tables.requests.kept_open).toEqual([]);
  expect(await services.requests.get(a, finished as string)).toBeUndefined();
  expect(await services.requests.get(a, open)).toBeUndefined();
  expect(await services.requests.get(a, young)).toBeDefined();
  const left = await services.database.rows<{ n: number }>(
    sql`select count(*)::int as n from pg_class where relname = ${todays as string}`,
  );
  expect(left[0]?.n).toBe(0);
  expect((await partitions("requests")).some((p) => p.name === todays)).toBe(false);
});

it("drops idempotency key partitions a day after they end, whatever the request retention", async () => {
  const list = await partitions("idempotency_keys");
  const first = list[0];
  if (!first) throw new Error("no idempotency_keys partition");
  const justBefore = await services.retention.run(new Date(first.to_ms + DAY_MS - 1));
  expect(justBefore.tables.idempotency_keys.dropped).not.toContain(first.name);
  const after = await services.retention.run(new Date(first.to_ms + DAY_MS));
  expect(after.tables.idempotency_keys.dropped).toContain(first.name);
});

it("finds a request by id in one partition, and reads one row a partition at most for a first page", async () => {
  const a = (await services.accounts.createAccount("pruning")).account_id;
  const yesterday = await insertAt(a, Date.now() - DAY_MS);
  for (let i = 0; i < 20; i++) await insertAt(a, Date.now() - DAY_MS);
  const ids = await enqueueRequests(services, a, ORDER, ORDER, ORDER, ORDER, ORDER, ORDER);
  expect(await partitionOf(yesterday)).not.toBe(await partitionOf(ids[0] as string));

  const byId = await explain(
    services.database,
    sql`explain (format json) select * from requests where account_id = ${a} and id = ${yesterday}`,
  );
  const touched = scans(byId).map((n) => n["Relation Name"]);
  expect(touched).toEqual([await partitionOf(yesterday)]);

  // The list's first page (records.ts list): newest five of 27 rows in two partitions.
  const page = await explain(
    services.database,
    sql`explain (analyze, format json) select id from requests where account_id = ${a} order by seq desc limit 5`,
  );
  const read = scans(page);
  const rowsRead = read.reduce((sum, n) => sum + (n["Actual Rows"] ?? 0), 0);
  expect(rowsRead).toBeLessThanOrEqual(5 + read.length);
  expect(rowsRead).toBeLessThan(27);
});

it("drops without deleting a row: no tuple of the partitioned tables is ever deleted", async () => {
  const a = (await services.accounts.createAccount("dead tuples")).account_id;
  const [id] = await enqueueRequests(services, a, ORDER);
  // Every request finished, this file's earlier ones too, so no open one keeps today's partition.
  await services.database.rows(sql`update requests set status = 'succeeded' where status <> 'succeeded'`);
  const pass = await services.retention.run(new Date(Date.now() + 31 * DAY_MS + 60_000));
  expect(pass.tables.requests.rows_dropped).toBeGreaterThanOrEqual(1);
  expect(await services.requests.get(a, id as string)).toBeUndefined();
  // Deleted tuples are what a DELETE leaves for autovacuum; a dropped partition leaves none.
  await services.database.rows(sql`select pg_stat_force_next_flush()`);
  const [deleted] = await services.database.rows<{ n: string; tables: string }>(
    sql`select coalesce(sum(n_tup_del), 0) as n, count(*) as tables from pg_stat_user_tables
         where relname like 'requests%' or relname like 'idempotency_keys%'`,
  );
  expect(Number(deleted?.tables)).toBeGreaterThan(0);
  expect(Number(deleted?.n)).toBe(0);
});
