// Benchmark 4: change-feed page latency as the account grows. `GET /v2/orders?limit=200` with
// 10k and with 1M orders in the account, at the start (no cursor), in the middle (a cursor the
// API issued) and at the tail (caught up: the empty page), one call at a time.
//   node bench/feed-scale.ts        (BENCH_FEED_SIZES=10000,1000000, BENCH_FEED_CALLS=200)
// Loading 1M orders through the API would take too long, so the orders are written with SQL into
// the server's `orders` table, in the shape the server writes (a body taken from a real order the
// API stored, with id, external_id, order_number and timestamps varied), then REINDEX and
// VACUUM ANALYZE, as a long-lived table would be. Cursors are signed, so they come from the API:
// the tail row is written first and the first page read (its next_cursor is the tail); then the
// upper half, whose first page gives a cursor in the middle; then the lower half.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import postgres from "postgres";
import { api, sleep } from "./lib/client.ts";
import { order } from "./lib/fixtures.ts";
import { activityText, sampleActivity } from "./lib/pg-activity.ts";
import { freshDatabase, NO_RATE_LIMITS, SERVER_MAIN, startOisr, startProcess } from "./lib/processes.ts";
import { monotonicUs, profileEnvIn, summarizeProfiles } from "./lib/profile.ts";
import { fmt, printBlock, printTable, type Row, ratio, spread } from "./lib/report.ts";

const SIZES = (process.env.BENCH_FEED_SIZES ?? "10000,1000000").split(",").map(Number);
const CALLS = Number(process.env.BENCH_FEED_CALLS ?? 200);
const WARMUP = 20;
const LIMIT = 200;
const WALK = 20;

interface Page {
  data: { id: string }[];
  next_cursor: string;
  has_more: boolean;
}

interface SizeResult {
  size: number;
  positions: { name: string; ms: ReturnType<typeof spread>; rows: number }[];
  all: ReturnType<typeof spread>;
  walk: ReturnType<typeof spread>;
  seedSeconds: number;
  tableMb: number;
  plan: string;
  indexRangeScan: boolean;
  diagnosis: string;
}

/**
 * Not part of the figures: the same calls again on a server restarted under --cpu-prof, with
 * pg_stat_activity sampled, to show where a page's time goes (PostgreSQL or the Node.js process).
 */
async function diagnose(
  databaseUrl: string,
  measured: { stop(): Promise<void>; token: string },
  middleCursor: string,
  tailCursor: string,
): Promise<string> {
  await measured.stop();
  const dir = mkdtempSync(join(tmpdir(), "oisr-feed-prof-"));
  const server = await startProcess(
    SERVER_MAIN,
    ["serve"],
    {
      DATABASE_URL: databaseUrl,
      PORT: "0",
      LOG_LEVEL: "warn",
      OISR_RATE_LIMITS: NO_RATE_LIMITS,
      ...profileEnvIn(dir, "feed"),
    },
    /API:\s+(\S+)/,
  );
  try {
    const client = api(server.match[1] as string, measured.token);
    const paths = [
      `/orders?limit=${LIMIT}&cursor=${encodeURIComponent(middleCursor)}`,
      `/orders?limit=${LIMIT}&cursor=${encodeURIComponent(tailCursor)}`,
    ];
    for (const p of paths) for (let i = 0; i < WARMUP; i++) await client.getText(p);
    const sampler = sampleActivity(databaseUrl, 1);
    const fromUs = monotonicUs();
    const started = performance.now();
    for (let i = 0; i < CALLS; i++) for (const p of paths) await client.getText(p);
    const perCall = (performance.now() - started) / (2 * CALLS);
    const window = { fromUs, toUs: monotonicUs() };
    const activity = await sampler.stop();
    await server.stop();
    return [
      `${2 * CALLS} calls (middle page and empty tail page alternating), ${fmt(perCall, 2)} ms per call while observed`,
      activityText(activity),
      "",
      summarizeProfiles(dir, "feed", 20, window),
    ].join("\n");
  } finally {
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

async function measureSize(size: number): Promise<SizeResult> {
  const db = await freshDatabase();
  const server = await startOisr(db.url, { OISR_RATE_LIMITS: NO_RATE_LIMITS });
  const sql = postgres(db.url, { max: 1, onnotice: () => {} });
  try {
    const client = api(server.url, server.token);
    // One real order, stored by the server: its body is the template.
    const ack = await client.post("/ingest/orders", JSON.stringify({ orders: [order("template")] }));
    for (;;) {
      const r = await client.get<{ status: string }>(`/requests/${ack.json.request_id}`);
      if (r.json.status === "succeeded") break;
      if (r.json.status !== "pending" && r.json.status !== "processing") throw new Error(r.json.status);
      await sleep(10);
    }
    const [template] = await sql<{ body: Record<string, unknown> }[]>`select body from orders`;
    await sql`delete from orders`;

    const seedStarted = performance.now();
    await sql`set synchronous_commit = off`;
    const seed = async (from: number, to: number) => {
      for (let lo = from; lo <= to; lo += 100_000) {
        const hi = Math.min(to, lo + 99_999);
        await sql`
          insert into orders (account_id, id, external_id, status, source, feed_seq, updated_at, body)
          select ${server.accountId}, o.id, o.ext, 'open', 'shopify', o.g, o.ts,
                 ${sql.json(template?.body as never)}::jsonb || jsonb_build_object(
                   'id', o.id, 'external_id', o.ext, 'order_number', '#' || o.ext,
                   'created_at', o.iso, 'updated_at', o.iso, 'source_updated_at', o.iso)
            from (select g, 'ord_01K' || lpad(g::text, 23, '0') as id, 'seed-' || g as ext,
                         t as ts, to_char(t at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as iso
                    from generate_series(${lo}::bigint, ${hi}::bigint) g,
                         lateral (select timestamptz '2026-01-01 00:00:00Z' + g * interval '20 seconds' as t) x) o`;
      }
      await sql`update accounts set feed_seq = ${size} where id = ${server.accountId}`;
    };
    const firstPage = async () => (await client.get<Page>(`/orders?limit=${LIMIT}`)).json;

    const mid = Math.floor(size / 2);
    await seed(size, size);
    const tailCursor = (await firstPage()).next_cursor;
    await seed(mid + 1, size - 1);
    const middlePage = await firstPage();
    const middleCursor = middlePage.next_cursor;
    await seed(1, mid);
    await sql`reindex table orders`;
    await sql`vacuum analyze orders`;
    const seedSeconds = (performance.now() - seedStarted) / 1000;
    const [{ n, mb } = { n: "0", mb: "0" }] = await sql<{ n: string; mb: string }[]>`
      select count(*) n, pg_total_relation_size('orders') / 1e6 as mb from orders`;
    if (Number(n) !== size) throw new Error(`seeded ${n} orders, expected ${size}`);

    const time = async (path: string) => {
      const t = performance.now();
      const res = await client.getText(path);
      const ms = performance.now() - t;
      if (res.status !== 200) throw new Error(`GET ${path}: ${res.status} ${res.text.slice(0, 200)}`);
      return { ms, page: res.text };
    };
    const positions: SizeResult["positions"] = [];
    const all: number[] = [];
    for (const [name, cursor] of [
      ["start (no cursor)", undefined],
      [`middle (cursor at ${fmt(mid + LIMIT)})`, middleCursor],
      ["tail, caught up (empty page)", tailCursor],
    ] as const) {
      const path = `/orders?limit=${LIMIT}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`;
      for (let i = 0; i < WARMUP; i++) await time(path);
      const times: number[] = [];
      let rows = 0;
      for (let i = 0; i < CALLS; i++) {
        const r = await time(path);
        times.push(r.ms);
        rows = (JSON.parse(r.page) as Page).data.length;
      }
      all.push(...times);
      positions.push({ name, ms: spread(times), rows });
    }
    // A consumer catching up: successive pages from the middle, each read once.
    const walk: number[] = [];
    let cursor = middleCursor;
    for (let i = 0; i < WALK; i++) {
      const r = await time(`/orders?limit=${LIMIT}&cursor=${encodeURIComponent(cursor)}`);
      walk.push(r.ms);
      cursor = (JSON.parse(r.page) as Page).next_cursor;
    }

    // The feed query as the server sends it (orderFeed in packages/server/src/store/resources.ts),
    // prepared like postgres.js does, run past the point where PostgreSQL may pick a generic plan.
    await sql.unsafe(`prepare feed(text, bigint, bigint) as
      select "feed_seq", "body" from "orders"
       where ("orders"."account_id" = $1 and "orders"."feed_seq" > $2)
       order by "orders"."feed_seq" asc limit $3`);
    for (let i = 0; i < 6; i++) await sql.unsafe(`execute feed('${server.accountId}', ${mid}, ${LIMIT + 1})`);
    const plan = (
      await sql.unsafe<{ "QUERY PLAN": string }[]>(
        `explain (analyze, buffers) execute feed('${server.accountId}', ${mid}, ${LIMIT + 1})`,
      )
    )
      .map((r) => r["QUERY PLAN"])
      .join("\n");
    const indexRangeScan = /Index Scan using orders_feed_idx/.test(plan) && !/\bSort\b|Seq Scan/.test(plan);
    return {
      size,
      positions,
      all: spread(all),
      walk: spread(walk),
      seedSeconds,
      tableMb: Number(mb),
      diagnosis: size === SIZES.at(-1) ? await diagnose(db.url, server, middleCursor, tailCursor) : "",
      plan,
      indexRangeScan,
    };
  } finally {
    await sql.end();
    await server.stop();
    await db.drop();
  }
}

const results: SizeResult[] = [];
for (const size of SIZES) results.push(await measureSize(size));

const small = results[0] as SizeResult;
const large = results.at(-1) as SizeResult;
const ms = (x: number) => fmt(x, 2);
const rows: Row[] = [];
for (const r of results) {
  const isLarge = r === large && results.length > 1;
  rows.push({
    figure: `${fmt(r.size)} orders: p50, all positions, ms`,
    value: ms(r.all.p50),
    ...(isLarge
      ? { baseline: `${ms(small.all.p50)} (${fmt(small.size)})`, ratio: ratio(r.all.p50, small.all.p50) }
      : {}),
    goal: isLarge ? "≤ 10 ms; ratio ≤ 1.5×" : "",
    met: isLarge ? r.all.p50 <= 10 && r.all.p50 / small.all.p50 <= 1.5 : undefined,
  });
  rows.push({
    figure: `${fmt(r.size)} orders: p99, all positions, ms`,
    value: ms(r.all.p99),
    ...(isLarge ? { baseline: ms(small.all.p99), ratio: ratio(r.all.p99, small.all.p99) } : {}),
    summary: isLarge,
  });
  for (const p of r.positions) {
    const peer = isLarge ? small.positions[r.positions.indexOf(p)] : undefined;
    rows.push({
      figure: `  ${fmt(r.size)}: ${p.name}, ${p.rows} rows, p50 / p99 ms`,
      value: `${ms(p.ms.p50)} / ${ms(p.ms.p99)}`,
      ...(peer
        ? { baseline: `${ms(peer.ms.p50)} / ${ms(peer.ms.p99)}`, ratio: ratio(p.ms.p50, peer.ms.p50) }
        : {}),
    });
  }
  rows.push({
    figure: `  ${fmt(r.size)}: ${WALK} successive pages from the middle (each read once), p50 / max ms`,
    value: `${ms(r.walk.p50)} / ${ms(r.walk.max)}`,
  });
  rows.push({
    figure: `  ${fmt(r.size)}: feed query plan`,
    value: r.indexRangeScan
      ? "index range scan on orders_feed_idx, no sort"
      : "NOT a plain index range scan (see plan)",
    goal: "index range scan",
    met: r.indexRangeScan,
  });
  rows.push({
    figure: `  ${fmt(r.size)}: orders table + indexes, MB; seeding took, s`,
    value: `${fmt(r.tableMb)}; ${fmt(r.seedSeconds, 1)}`,
  });
}
printTable(
  `Change-feed page latency: GET /v2/orders?limit=${LIMIT}, ${CALLS} calls per position after ${WARMUP} warm-up, one at a time (PostgreSQL)`,
  rows,
);
printBlock(
  `EXPLAIN (ANALYZE, BUFFERS) of the feed query, ${fmt(large.size)} orders, middle position`,
  large.plan,
);
printBlock(
  `Diagnosis: where a page's time goes, ${fmt(large.size)} orders (server under --cpu-prof)`,
  large.diagnosis,
);
