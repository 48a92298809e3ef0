// Webhook drain benchmark (issues 26/30): how fast one worker process sends a backlog of pending
// deliveries, and whether that rate holds as the backlog deepens and the delivered history grows.
// Each case is a fresh database: S subscriptions (one account) on a receiver in this process that
// answers 204, and a backlog of N pending deliveries, each the first attempt of a dispatched
// `request.succeeded` event to one subscription (N / S events fanned out to every subscription),
// written through the server's schema as fan-out writes them (ULID ids carrying created_at). The
// history case adds H succeeded attempts spread over the last 30 days, one daily partition each
// (a 30-day retention keeps ~34). Then `oisr-server serve` with OISR_ROLE=worker starts and is
// timed from its first delivery until 75% of the backlog arrived (or BENCH_WEBHOOK_WINDOW_S).
//   node bench/webhook-drain.ts
//   BENCH_WEBHOOK_SUBSCRIPTIONS=50  BENCH_WEBHOOK_BACKLOGS=2000,50000  BENCH_WEBHOOK_HISTORY=200000
//   BENCH_WEBHOOK_FILL_ONLY=1   fills one database (the largest backlog, with history), prints its
//                               URL and keeps it, for EXPLAIN ANALYZE of the dispatcher's statements
//   BENCH_WEBHOOK_PARTITION_MINUTES=52   minute partitions over the last 52 minutes instead of day
//                               partitions over 30 days (a soak's 10-minute retention keeps ~52), the
//                               history spread over them: the claim's cost in the number of partitions
//   BENCH_WEBHOOK_BASELINE_MAIN=<another build's packages/server/dist/main.mjs>   same-run A/B: each
//                               case is filled once, and each build drains its own copy of it, the
//                               order alternating from case to case
//   BENCH_WEBHOOK_BASELINE_SQL="<statements>;…"   run on the baseline's copy first: the schema its
//                               migrations make where they differ from this tree's
import { randomBytes } from "node:crypto";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { loadavg } from "node:os";
import postgres from "postgres";
import { meterText, runMeter } from "./lib/cpu.ts";
import { createHelpers, dropHelpers } from "./lib/growth-fill.ts";
import { cloneDatabase, createAccount, freshDatabase, startOisrWorker } from "./lib/processes.ts";
import { fmt, printTable, type Row, ratio } from "./lib/report.ts";
import { clusterWalMeter } from "./lib/wal.ts";

const SUBSCRIPTIONS = Number(process.env.BENCH_WEBHOOK_SUBSCRIPTIONS ?? 50);
const BACKLOGS = (process.env.BENCH_WEBHOOK_BACKLOGS ?? "2000,50000").split(",").map(Number);
const HISTORY = Number(process.env.BENCH_WEBHOOK_HISTORY ?? 200_000);
const HISTORY_DAYS = 30;
const WINDOW_S = Number(process.env.BENCH_WEBHOOK_WINDOW_S ?? 40);
const PARTITION_MINUTES = Number(process.env.BENCH_WEBHOOK_PARTITION_MINUTES ?? 0);
const BASELINE_MAIN = process.env.BENCH_WEBHOOK_BASELINE_MAIN;
/**
 * Statements run on the baseline's copy (`;`-separated) to give it the schema its own migrations
 * make, where they differ from this tree's: each case is filled once, with this tree's migrations.
 * Migration 0021 against the build before it: BENCH_WEBHOOK_BASELINE_SQL="create index
 * webhook_deliveries_event_idx on webhook_deliveries (account_id, event_id); create index
 * webhook_deliveries_due_idx on webhook_deliveries (next_attempt_at) where status = 'pending'"
 */
const BASELINE_SQL = (process.env.BENCH_WEBHOOK_BASELINE_SQL ?? "")
  .split(";")
  .map((s) => s.trim())
  .filter((s) => s !== "");
/**
 * The CLI's start makes the partitions around now sized by its retention, and the fill's are then
 * skipped where those cover: with minute partitions it runs with a retention that makes minute ones.
 * The worker keeps the default 30 days, so its retention pass drops nothing while it is measured.
 */
const CLI_ENV: Record<string, string> = PARTITION_MINUTES > 0 ? { OISR_REQUEST_RETENTION: "10m" } : {};
/** The span the history covers and the partitions that hold it. */
const SPAN =
  PARTITION_MINUTES > 0
    ? {
        ms: PARTITION_MINUTES * 60_000,
        from: `${PARTITION_MINUTES + 1} minutes`,
        ahead: "5 minutes",
        interval: "1 minute",
      }
    : { ms: HISTORY_DAYS * 86_400_000, from: `${HISTORY_DAYS + 1} days`, ahead: "2 days", interval: "1 day" };

/** A receiver answering 204 to everything, counting what it got and when. */
async function receiver() {
  let hits = 0;
  let firstMs = 0;
  let lastMs = 0;
  const reset = () => {
    hits = 0;
    firstMs = 0;
    lastMs = 0;
  };
  const server = createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      const now = performance.now();
      if (hits === 0) firstMs = now;
      hits++;
      lastMs = now;
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    counts: () => ({ hits, firstMs, lastMs }),
    reset,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** S subscriptions, the backlog's events and pending first attempts, and the delivered history. */
async function fill(sql: postgres.Sql, accountId: string, url: string, backlog: number, history: number) {
  await createHelpers(sql);
  const nowMs = Date.now();
  // Daily partitions over the history's span, as a 30-day retention keeps them (or minute ones).
  await sql`select oisr_ensure_table_partitions(t, now() - ${SPAN.from}::interval,
                   now() + ${SPAN.ahead}::interval, ${SPAN.interval}::interval)
              from unnest(array['events', 'webhook_deliveries']) t`;
  const secret = `whsec_${randomBytes(24).toString("base64")}`;
  await sql`insert into webhook_subscriptions (account_id, id, url, events, secret, created_at, updated_at)
            select ${accountId}, 'whs_' || growth_ulid(${nowMs - 86_400_000 * 40}::bigint + i, 'sub' || i), ${url},
                   array['request.succeeded'], ${secret}, now() - interval '40 days', now()
              from generate_series(1, ${SUBSCRIPTIONS}) i`;
  const subs = (
    await sql<
      { id: string }[]
    >`select id from webhook_subscriptions where account_id = ${accountId} order by id`
  ).map((r) => r.id);
  const events = Math.ceil(backlog / SUBSCRIPTIONS);
  // Events of the last minute, already fanned out (dispatched_at set).
  await sql`insert into events (account_id, id, feed_seq, type, payload, created_at, dispatched_at)
            select ${accountId}, e.id, i, 'request.succeeded',
                   jsonb_build_object('id', e.id, 'type', 'request.succeeded', 'created_at', now(),
                                      'data', jsonb_build_object('object', jsonb_build_object('request_id', md5(i::text)))),
                   oisr_ulid_time(e.id), now()
              from generate_series(1, ${events}) i,
                   lateral (select 'evt_' || growth_ulid(${nowMs - 60_000}::bigint + i, 'evt' || i) as id) e`;
  // One pending first attempt per (event, subscription) until the backlog is full, due now.
  await sql`insert into webhook_deliveries (account_id, id, subscription_id, event_id, event_type, trigger, round,
                                            attempt, status, next_attempt_at, created_at)
            select ${accountId}, d.id, (${subs}::text[])[1 + (k % ${SUBSCRIPTIONS})], e.id, 'request.succeeded', 'event', 0,
                   1, 'pending', oisr_ulid_time(d.id), oisr_ulid_time(d.id)
              from generate_series(0, ${backlog - 1}) k,
                   lateral (select 'evt_' || growth_ulid(${nowMs - 60_000}::bigint + 1 + k / ${SUBSCRIPTIONS},
                                                         'evt' || (1 + k / ${SUBSCRIPTIONS})) as id) e,
                   lateral (select 'whd_' || growth_ulid(${nowMs - 50_000}::bigint + k / 100, 'whd' || k) as id) d`;
  // Delivered history: succeeded first attempts spread over the span, every subscription alike.
  for (let done = 0; done < history; done += 50_000) {
    const n = Math.min(50_000, history - done);
    const step = SPAN.ms / history;
    await sql`insert into webhook_deliveries (account_id, id, subscription_id, event_id, event_type, trigger, round,
                                              attempt, status, attempted_at, response_status, duration_ms, created_at)
              select ${accountId}, d.id, (${subs}::text[])[1 + (k % ${SUBSCRIPTIONS})],
                     'evt_' || growth_ulid(t - 10, 'hevt' || k), 'request.succeeded', 'event', 0,
                     1, 'succeeded', oisr_ulid_time(d.id), 204, 3, oisr_ulid_time(d.id)
                from generate_series(${done}::int, ${done + n - 1}::int) k,
                     lateral (select (${nowMs - SPAN.ms}::bigint + k * ${step}::float8)::bigint as t) ms,
                     lateral (select 'whd_' || growth_ulid(t, 'hwhd' || k) as id) d`;
  }
  await dropHelpers(sql);
  await sql`analyze webhook_deliveries`;
  await sql`analyze events`;
  const [parts] = await sql<{ n: number }[]>`select count(*)::int as n from pg_inherits
    where inhparent = 'webhook_deliveries'::regclass`;
  return { partitions: parts?.n ?? 0 };
}

/** One build's worker draining its own copy of a filled database, timed at the receiver. */
async function measure(
  url: string,
  hook: Awaited<ReturnType<typeof receiver>>,
  backlog: number,
  main?: string,
) {
  hook.reset();
  const target = Math.floor(backlog * 0.75);
  const worker = await startOisrWorker(url, { OISR_WEBHOOK_ALLOW_PRIVATE_NETWORKS: "1" }, main);
  const load = loadavg()[0] ?? 0;
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    const meter = await runMeter(url, { worker: worker.child.pid ?? 0 });
    const wal = await clusterWalMeter(sql);
    const t0 = performance.now();
    for (;;) {
      await new Promise((r) => setTimeout(r, 100));
      const c = hook.counts();
      if (c.hits >= target) break;
      if (c.hits > 0 && performance.now() - c.firstMs > WINDOW_S * 1000) break;
      if (c.hits === 0 && performance.now() - t0 > 60_000) throw new Error("no delivery in 60 s");
    }
    const cpu = await meter();
    const walBytes = await wal();
    const c = hook.counts();
    const seconds = (c.lastMs - c.firstMs) / 1000;
    const rate = (c.hits - 1) / seconds;
    // CPU per delivery (milliseconds), which a busy machine stretches far less than wall time.
    const perDelivery = {
      worker: ((cpu.cores.worker ?? 0) / rate) * 1000,
      postgres: (cpu.postgres / rate) * 1000,
    };
    // The cluster's WAL, so other work on this PostgreSQL would count in it: the fill is done and
    // checkpointed (cloneDatabase), and nothing else of this benchmark writes meanwhile.
    return {
      rate,
      hits: c.hits,
      seconds,
      load,
      perDelivery,
      walPerDelivery: walBytes / c.hits,
      cpu: meterText(cpu),
    };
  } finally {
    await sql.end();
    await worker.stop();
  }
}

/**
 * Index scans of webhook_deliveries' indexes on this database so far, by the parent index (each
 * partition has its own copy): which of them the dispatcher's plans read.
 */
async function indexScans(url: string): Promise<string> {
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    const rows = await sql<{ name: string; scans: string }[]>`
      select p.relname as name, sum(s.idx_scan)::bigint::text as scans
        from pg_stat_user_indexes s
        join pg_inherits i on i.inhrelid = s.indexrelid
        join pg_class p on p.oid = i.inhparent
       where s.relname like 'webhook_deliveries%'
       group by p.relname order by p.relname`;
    return rows.map((r) => `${r.name.replace("webhook_deliveries_", "")} ${fmt(Number(r.scans))}`).join(", ");
  } finally {
    await sql.end();
  }
}

type Drained = Awaited<ReturnType<typeof measure>> & { partitions: number; scans: string };

/** Fills one database for the case; this build (and the baseline, in alternating order) drains a copy each. */
async function drain(
  backlog: number,
  history: number,
  baselineFirst: boolean,
): Promise<{ current: Drained; baseline?: Drained }> {
  const filled = await freshDatabase();
  const hook = await receiver();
  try {
    const account = await createAccount(filled.url, "webhook-drain", CLI_ENV);
    const sql = postgres(filled.url, { max: 1, onnotice: () => {} });
    let partitions = 0;
    try {
      partitions = (await fill(sql, account.accountId, hook.url, backlog, history)).partitions;
    } finally {
      await sql.end();
    }
    const run = async (main?: string) => {
      const copy = await cloneDatabase(filled.url);
      try {
        if (main !== undefined) {
          const c = postgres(copy.url, { max: 1, onnotice: () => {} });
          for (const statement of BASELINE_SQL) await c.unsafe(statement);
          await c.end();
        }
        const measured = await measure(copy.url, hook, backlog, main);
        return { ...measured, partitions, scans: await indexScans(copy.url) };
      } finally {
        await copy.drop();
      }
    };
    if (BASELINE_MAIN === undefined) return { current: await run() };
    if (baselineFirst) {
      const baseline = await run(BASELINE_MAIN);
      return { current: await run(), baseline };
    }
    const current = await run();
    return { current, baseline: await run(BASELINE_MAIN) };
  } finally {
    await hook.close();
    await filled.drop();
  }
}

if (process.env.BENCH_WEBHOOK_FILL_ONLY) {
  const db = await freshDatabase();
  const account = await createAccount(db.url, "webhook-drain", CLI_ENV);
  const sql = postgres(db.url, { max: 1, onnotice: () => {} });
  const { partitions } = await fill(
    sql,
    account.accountId,
    "http://127.0.0.1:9/hook",
    BACKLOGS.at(-1) ?? 0,
    HISTORY,
  );
  await sql.end();
  console.log(`${db.url} (${partitions} partitions; drop it when done)`);
  process.exit(0);
}

const rows: Row[] = [];
const notes: string[] = [];
const cases = [
  ...BACKLOGS.map((b) => ({ backlog: b, history: 0 })),
  ...BACKLOGS.map((b) => ({ backlog: b, history: HISTORY })),
];
const rates: number[] = [];
const describe = (r: Drained) =>
  `${fmt(r.hits)} in ${r.seconds.toFixed(1)} s; CPU per delivery: PostgreSQL ${r.perDelivery.postgres.toFixed(1)} ms, worker ${r.perDelivery.worker.toFixed(1)} ms; WAL per delivery ${fmt(r.walPerDelivery)} B; load ${r.load.toFixed(1)}`;
for (const [i, c] of cases.entries()) {
  const { current: r, baseline: b } = await drain(c.backlog, c.history, i % 2 === 1);
  rates.push(r.rate);
  const name = `${SUBSCRIPTIONS} subscriptions, ${fmt(c.backlog)} pending, ${fmt(c.history)} delivered (${r.partitions} partitions)`;
  rows.push({ figure: `${name}: deliveries/s`, value: fmt(r.rate), baseline: describe(r) });
  notes.push(`${fmt(c.backlog)}/${fmt(c.history)}: ${r.cpu}; index scans: ${r.scans}`);
  if (b !== undefined) {
    rows.push({
      figure: `  the baseline build (${i % 2 === 1 ? "ran first" : "ran second"}): deliveries/s`,
      value: fmt(b.rate),
      ratio: ratio(r.rate, b.rate),
      baseline: describe(b),
    });
    notes.push(`${fmt(c.backlog)}/${fmt(c.history)}, baseline: ${b.cpu}; index scans: ${b.scans}`);
  }
}
const small = rates[0] ?? 0;
const large = rates[BACKLOGS.length - 1] ?? 0;
const smallHistory = rates[BACKLOGS.length] ?? 0;
const largeHistory = rates.at(-1) ?? 0;
rows.push(
  {
    figure: `rate at ${fmt(BACKLOGS.at(-1) ?? 0)} pending against ${fmt(BACKLOGS[0] ?? 0)}`,
    value: `${fmt(large)} / ${fmt(small)}`,
    ratio: ratio(large, small),
    goal: "≥ 0.90×",
  },
  {
    figure: `rate with ${fmt(HISTORY)} delivered against none (${fmt(BACKLOGS[0] ?? 0)} pending)`,
    value: `${fmt(smallHistory)} / ${fmt(small)}`,
    ratio: ratio(smallHistory, small),
    goal: "≥ 0.90×",
  },
  {
    figure: `rate at ${fmt(BACKLOGS.at(-1) ?? 0)} pending and ${fmt(HISTORY)} delivered against ${fmt(BACKLOGS[0] ?? 0)} and none`,
    value: `${fmt(largeHistory)} / ${fmt(small)}`,
    ratio: ratio(largeHistory, small),
    goal: "≥ 0.90×",
  },
);
printTable("Webhook drain: one worker process, a receiver answering 204", rows);
console.log(`\nCPU in cores during each drain:\n${notes.map((n) => `- ${n}`).join("\n")}`);
