// Growth benchmark (issue 26): does the service keep its speed as it holds months of history?
// Two databases are filled with 30 days of history (bench/lib/growth-fill.ts: set-based SQL
// through the server's schema, rows the server could have written), one with
// BENCH_GROWTH_REQUESTS requests (10,000,000 by default) and one with 10,000; then both are
// measured the same way, one right after the other (so both sides see the same machine):
//   - accept: POST /ingest/orders acknowledged per second (ingest-ack's load: one order,
//     50 connections) and its p99;
//   - drain: a backlog of 10,000 one-order requests from 50 accounts, applied by one worker
//     process (queue-drain's measure);
//   - GET /requests/{id} p50/p99, and the first and a deep page of /orders, /events, /requests;
//   - retention: one pass's duration, WAL bytes and dead tuples, and ingest p99 while a pass runs
//     against without.
// Every account holds the same history in both databases (BENCH_GROWTH_PER_ACCOUNT requests,
// 10,000 by default): the large database has more accounts, not bigger ones, so the ratios show
// what the total history costs. What one account's own depth costs is feed-scale's figure.
// The history spans 31 days, so a 30-day retention pass has a day to drop, and a 29-day pass
// (the one run under ingest load) another.
//   BENCH_GROWTH_REQUESTS=200000 node bench/growth.ts      (PostgreSQL at DATABASE_URL or 127.0.0.1)
//   BENCH_GROWTH_SECONDS=10                               seconds of each ingest load
//   BENCH_GROWTH_PER_ACCOUNT=10000, BENCH_GROWTH_CALLS=200 history per account; timed calls per read
//   GROWTH_PLAN=1                                         print EXPLAIN ANALYZE of each fill chunk
//   BENCH_GROWTH_FILL_ONLY=1                              only the large fill: its rate and sizes
//   BENCH_GROWTH_FILL_SESSIONS=2                          sessions filling at once (accounts split)
//   BENCH_GROWTH_INDEXES_AFTER=0                          keep every index during the fill
//   BENCH_GROWTH_PASS=command                             the pass under load as a spawned command
//   BENCH_GROWTH_WAIT_LOAD=1.5                            measure once the 1-minute load is below it
//   BENCH_GROWTH_CHECKPOINT=1                             CHECKPOINT before each measured pass (worst-case WAL)
// The fill writes each request's three rows from two sessions, and builds the primary keys and
// full secondary indexes of requests, events and webhook_deliveries after the rows (as pg_restore
// does; the band read for the deep cursors is written before they are dropped). 200k, FILL_ONLY,
// alternated on 2026-11-28 01:29–01:34 UTC (load average 3.7–6.4): 7,970, 10,742 and 8,407
// requests/s this way against 6,385 and 6,965 with SESSIONS=1 INDEXES_AFTER=0 (and 7,547 for the
// fill before this change); under a load of 7–15 it was 5,099 against 2,930. 10 million filled in
// 1,951 s (5,126 requests/s; the rows alone 7,100/s, then 357 s of index builds and 186 s of
// VACUUM ANALYZE; 45 GB of tables and indexes; load 8–15). Freshly built indexes are denser than
// ones grown by inserts (leaves packed to the fillfactor, none split half-empty), so the large
// database's index bytes are a lower bound and its index reads may be a little faster than a
// live server's would be.
import { createServer } from "node:http";
import { loadavg } from "node:os";
import postgres from "postgres";
import { api, sleep } from "./lib/client.ts";
import { order } from "./lib/fixtures.ts";
import * as fill from "./lib/growth-fill.ts";
import { type Figures, printResults } from "./lib/growth-report.ts";
import {
  isPartitioned,
  openInProcessPasses,
  type RetentionRun,
  runRetention,
} from "./lib/growth-retention.ts";
import { createAccount, freshDatabase, NO_RATE_LIMITS, startOisr, startOisrWorker } from "./lib/processes.ts";
import { type Account, sendOneOrderRequests, waitDrained } from "./lib/queue.ts";
import { fmt, spread } from "./lib/report.ts";
import { clusterWalMeter } from "./lib/wal.ts";

const TOTAL = Number(process.env.BENCH_GROWTH_REQUESTS ?? 10_000_000);
const BASELINE = 10_000;
const PER_ACCOUNT = Math.min(BASELINE, Number(process.env.BENCH_GROWTH_PER_ACCOUNT ?? 10_000));
const SECONDS = Number(process.env.BENCH_GROWTH_SECONDS ?? 10);
const SPAN_DAYS = 31;
const LIVE_ACCOUNTS = 50;
const DRAIN = 10_000;
const CALLS = Number(process.env.BENCH_GROWTH_CALLS ?? 200);
const WARMUP = 20;
/** Sessions filling at once (each its own accounts), and whether the bulk indexes are built after. */
const FILL_SESSIONS = Math.max(1, Number(process.env.BENCH_GROWTH_FILL_SESSIONS ?? 2));
const BUILD_INDEXES_AFTER = process.env.BENCH_GROWTH_INDEXES_AFTER !== "0";
/**
 * The pass under ingest load runs in this process (this checkout's @oisr/server, services opened
 * before the load) unless BENCH_GROWTH_PASS=command, which spawns `oisr-server retention run` of
 * BENCH_SERVER_MAIN during the load as before session 14 (its start-up then shares the 2 cores).
 */
const PASS_IN_PROCESS = process.env.BENCH_GROWTH_PASS !== "command";
const LIMIT = 200;
/** Requests per account written before the deep cursors are read (the band of bench/lib/growth-fill.ts). */
const BAND = 2_000;

const receiver = createServer((req, res) => {
  req.resume();
  req.on("end", () => res.writeHead(204).end());
});
await new Promise<void>((r) => receiver.listen(0, "127.0.0.1", r));
const hookUrl = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/hook`;
const SERVER_ENV = { OISR_RATE_LIMITS: NO_RATE_LIMITS, OISR_WEBHOOK_ALLOW_PRIVATE_NETWORKS: "1" };

/** Bytes on disk (table, indexes, TOAST; every partition) and rows of a table. */
async function tableSize(sql: postgres.Sql, table: string) {
  const [row] = await sql<{ bytes: string; rows: string }[]>`
    select coalesce((select sum(pg_total_relation_size(relid)) from pg_partition_tree(${table}::regclass)),
                    pg_total_relation_size(${table}::regclass))::text as bytes,
           (select count(*) from ${sql(table)})::text as rows`;
  return { bytes: Number(row?.bytes ?? 0), rows: Number(row?.rows ?? 0) };
}

async function waitSucceeded(client: ReturnType<typeof api>, id: string) {
  for (;;) {
    const r = await client.get<{ status: string }>(`/requests/${id}`);
    if (r.json.status === "succeeded") return;
    if (r.json.status !== "pending" && r.json.status !== "processing") throw new Error(r.json.status);
    await sleep(10);
  }
}

/** The template bodies: one order the API stored (as it was sent, and as the server keeps it). */
async function templates(url: string, reader: Account, sql: postgres.Sql) {
  const server = await startOisr(url, SERVER_ENV, { account: reader });
  try {
    const client = api(server.url, reader.token);
    const input = order("growth-template", "2026-01-01T00:00:00.000Z");
    const ack = await client.post("/ingest/orders", JSON.stringify({ orders: [input] }));
    await waitSucceeded(client, ack.json.request_id as string);
    const [stored] = await sql<{ body: Record<string, unknown> }[]>`select body from orders`;
    // The template's own rows are not part of the history.
    for (const t of ["webhook_deliveries", "events", "orders", "requests"])
      await sql`delete from ${sql(t)} where account_id = ${reader.accountId}`;
    return { input, stored: stored?.body };
  } finally {
    await server.stop();
  }
}

/** The fill's sessions, each set for bulk writes. */
async function fillSessions(url: string): Promise<postgres.Sql[]> {
  return Promise.all(
    Array.from({ length: FILL_SESSIONS }, async () => {
      const sql = postgres(url, { max: 1, onnotice: () => {} });
      // The fill's statements run once each: compiling them (JIT) cost ~0.5 s a chunk. Its
      // materialized steps hold a chunk's rows (~100 MB of bodies at 100,000): in memory, not
      // spilled to temporary files.
      await sql`set synchronous_commit = off`;
      await sql`set jit = off`;
      await sql`set work_mem = '512MB'`;
      await sql`set maintenance_work_mem = '1GB'`;
      return sql;
    }),
  );
}

async function fillHistory(url: string, sql: postgres.Sql, total: number, reader: Account) {
  const s = fill.shape(total, PER_ACCOUNT, SPAN_DAYS);
  const t = await templates(url, reader, sql);
  const started = performance.now();
  const pool = await fillSessions(url);
  try {
    return await fillWith(url, pool, s, t, reader, started);
  } finally {
    await Promise.all(pool.map((p) => p.end()));
  }
}

async function fillWith(
  url: string,
  pool: postgres.Sql[],
  s: fill.Shape,
  t: Awaited<ReturnType<typeof templates>>,
  reader: Account,
  started: number,
) {
  const sql = pool[0] as postgres.Sql;
  /** `step` on every session, each with its own accounts. */
  const parts = (step: (p: postgres.Sql, part: fill.Part) => Promise<void>) =>
    Promise.all(pool.map((p, index) => step(p, { index, of: pool.length })));
  if (await isPartitioned(sql))
    await sql`select oisr_ensure_partitions(${new Date(s.startMs - 86_400_000).toISOString()}::timestamptz, now())`;
  await fill.createHelpers(sql);
  await fill.createAccounts(sql, reader, s.accounts, hookUrl);
  // A band in the middle of every account's history first: the first pages read now give cursors
  // that, once the rest is written, point into the middle (cursors are signed: only the API makes them).
  const step = (what: string) =>
    console.log(`[growth]   ${what}: ${fmt((performance.now() - started) / 1000, 1)} s`);
  step("accounts");
  const R = fill.ORDER_REVISIONS;
  const lo = Math.floor(PER_ACCOUNT / 2 / R) * R;
  const hi = Math.min(PER_ACCOUNT, lo + BAND);
  await parts(async (p, part) => {
    await fill.fillRequests(p, s, t.input, lo, hi, part);
    await fill.fillOrders(p, s, t.stored, lo / R, hi / R, part);
  });
  const server = await startOisr(url, { ...SERVER_ENV, OISR_ROLE: "api" }, { account: reader });
  const cursors: Record<string, string> = {};
  try {
    const client = api(server.url, reader.token);
    for (const feed of ["orders", "events", "requests"]) {
      const page = await client.get<{ next_cursor: string; data: unknown[] }>(`/${feed}?limit=${LIMIT}`);
      if (page.status !== 200 || page.json.data.length !== LIMIT)
        throw new Error(`first page of the band: /${feed} ${page.status}, ${page.json.data?.length} rows`);
      cursors[feed] = page.json.next_cursor;
    }
  } finally {
    await server.stop();
  }
  step("band");
  // The rest without the primary keys and full secondary indexes of requests, events and
  // deliveries, built again after (as pg_restore does): see fill.dropBulkIndexes.
  const saved = BUILD_INDEXES_AFTER ? await fill.dropBulkIndexes(sql) : [];
  await parts(async (p, part) => {
    await fill.fillRequests(p, s, t.input, 0, lo, part);
    await fill.fillRequests(p, s, t.input, hi, PER_ACCOUNT, part);
    await fill.fillOrders(p, s, t.stored, 0, lo / R, part);
    await fill.fillOrders(p, s, t.stored, hi / R, Math.ceil(PER_ACCOUNT / R), part);
  });
  step("requests and orders");
  await fill.restoreIndexes(pool, saved);
  step(`${saved.length} indexes built`);
  await fill.finishFill(sql, s);
  await fill.dropHelpers(sql);
  await sql`drop table growth_accounts`;
  // As a long-lived database would be: statistics current, visibility map set.
  await fill.vacuumAnalyze(pool);
  step("vacuum analyze");
  return { shape: s, cursors, fillSeconds: (performance.now() - started) / 1000 };
}

async function timeCalls(client: ReturnType<typeof api>, paths: string[]) {
  const samples: number[] = [];
  for (let i = 0; i < WARMUP + CALLS; i++) {
    const path = paths[i % paths.length] as string;
    const t = performance.now();
    const res = await client.getText(path);
    const ms = performance.now() - t;
    if (res.status !== 200) throw new Error(`GET ${path}: ${res.status} ${res.text.slice(0, 200)}`);
    if (i >= WARMUP) samples.push(ms);
  }
  return spread(samples);
}

/** A filled database, ready to be measured. */
interface Filled {
  total: number;
  db: Awaited<ReturnType<typeof freshDatabase>>;
  sql: postgres.Sql;
  reader: Account;
  live: Account[];
  filled: Awaited<ReturnType<typeof fillHistory>>;
}

async function prepare(total: number): Promise<Filled> {
  const db = await freshDatabase();
  const sql = postgres(db.url, { max: 1, onnotice: () => {} });
  try {
    const reader = await createAccount(db.url, "growth-reader");
    const live: Account[] = [];
    for (let i = 0; i < LIVE_ACCOUNTS; i += 10)
      live.push(
        ...(await Promise.all(
          Array.from({ length: Math.min(10, LIVE_ACCOUNTS - i) }, (_, k) =>
            createAccount(db.url, `live-${i + k}`),
          ),
        )),
      );
    console.log(`[growth] filling ${fmt(total)} requests…`);
    const filled = await fillHistory(db.url, sql, total, reader);
    console.log(`[growth] filled in ${fmt(filled.fillSeconds, 1)} s`);
    return { total, db, sql, reader, live, filled };
  } catch (error) {
    await sql.end();
    await db.drop();
    throw error;
  }
}

async function release(p: Filled) {
  await p.sql.end();
  await p.db.drop();
}

/** The load average (1, 5, 15 min) as printed. */
const loadText = () =>
  loadavg()
    .map((n) => n.toFixed(2))
    .join(", ");

/**
 * Both databases are filled first and measured one after the other, so that the two sides' figures
 * come from the same minutes (before session 15 each was measured right after its own fill: the 10k
 * side ~50 minutes before the 10M side, under whatever else the machine ran then). With
 * BENCH_GROWTH_WAIT_LOAD set, the measuring waits (up to an hour) for the 1-minute load average to
 * drop below it.
 */
async function waitForQuiet() {
  const limit = Number(process.env.BENCH_GROWTH_WAIT_LOAD ?? 0);
  if (!(limit > 0)) return;
  for (let minute = 0; minute < 60; minute++) {
    const [one = 0] = loadavg();
    if (one < limit) return;
    console.log(`[growth] load average ${loadText()} ≥ ${limit}: waiting a minute (${minute + 1}/60)…`);
    await sleep(60_000);
  }
}

async function measure(p: Filled): Promise<Figures> {
  const { total, db, sql, reader, live, filled } = p;
  console.log(`[growth] measuring ${fmt(total)}, load average ${loadText()}`);
  const partitioned = await isPartitioned(sql);
  const bytes: Figures["bytes"] = {};
  for (const t of ["requests", "events", "webhook_deliveries", "orders"]) bytes[t] = await tableSize(sql, t);

  const server = await startOisr(db.url, { ...SERVER_ENV, OISR_ROLE: "api" }, { account: reader });
  const reads: Figures["reads"] = {};
  let ack: Awaited<ReturnType<typeof sendOneOrderRequests>>;
  let underLoad: Awaited<ReturnType<typeof sendOneOrderRequests>>;
  let underIdlePass: Awaited<ReturnType<typeof sendOneOrderRequests>>;
  let retention: RetentionRun;
  let retentionUnderLoad: RetentionRun;
  try {
    const client = api(server.url, reader.token);
    const ids = await sql<{ id: string }[]>`
      select id from requests where account_id = ${reader.accountId}
         and accepted_at > now() - interval '29 days' order by random() limit 500`;
    reads["GET /requests/{id}"] = await timeCalls(
      client,
      ids.map((r) => `/requests/${r.id}`),
    );
    for (const feed of ["orders", "events", "requests"]) {
      reads[`GET /${feed} first page`] = await timeCalls(client, [`/${feed}?limit=${LIMIT}`]);
      reads[`GET /${feed} deep page`] = await timeCalls(client, [
        `/${feed}?limit=${LIMIT}&cursor=${encodeURIComponent(filled.cursors[feed] as string)}`,
      ]);
    }
    ack = await sendOneOrderRequests(server.url, live, { seconds: SECONDS });
    retention = await runRetention(sql, db.url, "30d", partitioned);
    // The second pass (29 days: the next day of history) under the same ingest load, run as the
    // server's timer runs it: in a process already started (PASS_IN_PROCESS).
    const passes = partitioned && PASS_IN_PROCESS ? await openInProcessPasses(db.url, 29) : undefined;
    try {
      const load = sendOneOrderRequests(server.url, live, { seconds: SECONDS });
      await sleep(Math.min(2000, (SECONDS * 1000) / 4));
      retentionUnderLoad = await runRetention(sql, db.url, "29d", partitioned, {
        inProcess: passes?.run,
        timeOnly: true,
      });
      underLoad = await load;
      // Control: the same, with nothing left for the pass to drop.
      const idleLoad = sendOneOrderRequests(server.url, live, { seconds: SECONDS });
      await sleep(Math.min(2000, (SECONDS * 1000) / 4));
      await runRetention(sql, db.url, "29d", partitioned, { inProcess: passes?.run, timeOnly: true });
      underIdlePass = await idleLoad;
    } finally {
      await passes?.close();
    }
  } finally {
    await server.stop();
  }

  // Drain: what the loads above left first (not timed), then a backlog of 10,000.
  const worker = await startOisrWorker(db.url, SERVER_ENV);
  await waitDrained(sql, 600);
  await worker.stop();
  const api2 = await startOisr(db.url, { ...SERVER_ENV, OISR_ROLE: "api" }, { account: reader });
  // WAL of accepting and applying them (the cluster's: other databases' work is in it too).
  const wal = await clusterWalMeter(sql);
  await sendOneOrderRequests(api2.url, live, { amount: DRAIN });
  await api2.stop();
  const worker2 = await startOisrWorker(db.url, SERVER_ENV);
  const drained = await waitDrained(sql, 600);
  await worker2.stop();
  const walBytes = await wal();

  return {
    total,
    accounts: filled.shape.accounts,
    fillSeconds: filled.fillSeconds,
    bytes,
    reads,
    ackPerSecond: ack.perSecond,
    ackP99: ack.p99,
    ackDuringRetentionP99: underLoad.p99,
    ackDuringIdlePassP99: underIdlePass.p99,
    drainSeconds: drained.seconds,
    walPerRequest: walBytes / DRAIN,
    retention,
    retentionUnderLoad,
    partitioned,
    load: loadText(),
  };
}

/** BENCH_GROWTH_FILL_ONLY=1: only the large fill, its rate and the sizes (to work on the fill). */
async function fillOnly(total: number): Promise<void> {
  const db = await freshDatabase();
  const sql = postgres(db.url, { max: 1, onnotice: () => {} });
  try {
    const reader = await createAccount(db.url, "growth-reader");
    const filled = await fillHistory(db.url, sql, total, reader);
    console.log(
      `[growth] filled ${fmt(total)} requests in ${fmt(filled.fillSeconds, 1)} s: ${fmt(total / filled.fillSeconds)} requests/s`,
    );
    for (const t of ["requests", "events", "webhook_deliveries", "orders"]) {
      const size = await tableSize(sql, t);
      console.log(
        `[growth]   ${t}: ${fmt(size.rows)} rows, ${fmt(size.bytes / Math.max(1, size.rows))} bytes/row`,
      );
    }
  } finally {
    await sql.end();
    await db.drop();
  }
}

try {
  if (process.env.BENCH_GROWTH_FILL_ONLY === "1") {
    await fillOnly(TOTAL);
    process.exit(0);
  }
  const smallDb = await prepare(BASELINE);
  let small: Figures;
  let large: Figures;
  try {
    const largeDb = await prepare(TOTAL);
    try {
      await waitForQuiet();
      small = await measure(smallDb);
      large = await measure(largeDb);
    } finally {
      await release(largeDb);
    }
  } finally {
    await release(smallDb);
  }
  printResults(small, large, {
    seconds: SECONDS,
    drain: DRAIN,
    liveAccounts: LIVE_ACCOUNTS,
    limit: LIMIT,
    perAccount: PER_ACCOUNT,
  });
} finally {
  receiver.close();
}
