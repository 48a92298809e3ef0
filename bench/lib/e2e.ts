// End-to-end ingest throughput (benchmarks 2 and 6): submit R requests of N orders each, as fast
// as the API takes them, and time from the first submit until every one is `succeeded`.
import postgres from "postgres";
import { api } from "./client.ts";
import { runMeter } from "./cpu.ts";
import { order } from "./fixtures.ts";
import { type ActivitySampler, sampleActivity } from "./pg-activity.ts";
import { createAccount, freshDatabase, NO_RATE_LIMITS, ROOT, runJson, startOisr } from "./processes.ts";
import { monotonicUs } from "./profile.ts";
import { spread } from "./report.ts";

export interface E2eOptions {
  url: string;
  databaseUrl: string;
  accounts: { token: string; accountId: string }[];
  requestsPerAccount: number;
  ordersPerRequest: number;
  /** POSTs in flight at once. */
  submitConcurrency?: number;
  /** Distinguishes external ids between runs on one database. */
  tag: string;
  /** Server output (LOG_LEVEL=info) to read the workers' per-request apply times from. */
  serverOutput?: () => string;
  /** Sample pg_stat_activity during the run (a diagnosis; it costs PostgreSQL a little). */
  sampleActivity?: boolean;
  /** Server processes whose CPU time to count during the run, by name. */
  pids?: Record<string, number>;
}

export interface E2eResult {
  orders: number;
  requests: number;
  elapsedMs: number;
  ordersPerSec: number;
  submitMs: number;
  non202: number;
  statuses: Record<string, number>;
  ordersStored: number;
  /** Server clock: first accepted_at to last completed_at (the start of the last apply transaction). */
  serverSpanMs: number;
  /**
   * Per-request apply time from the worker logs, when available: the time of the transaction
   * (stage) that applied it divided by the requests in it. Stages overlap (decision 007).
   */
  applyMs?: ReturnType<typeof spread> & { sum: number; meanGroup: number };
  activity?: Awaited<ReturnType<ActivitySampler["stop"]>>;
  /** From the first submit to the last poll, on the clock of CPU profiles. */
  window: { fromUs: number; toUs: number };
  /** Cores used during the run: named processes, PostgreSQL, this process, other work. */
  cpu: Awaited<ReturnType<Awaited<ReturnType<typeof runMeter>>>>;
}

const POLL_MS = 20;
const POLL_DB = process.env.BENCH_E2E_POLL === "db";

export async function runE2e(o: E2eOptions): Promise<E2eResult> {
  const clients = o.accounts.map((a) => api(o.url, a.token));
  // Bodies are built before the clock starts: the client's JSON work is not the server's.
  const jobs: { account: number; body: string }[] = [];
  for (let r = 0; r < o.requestsPerAccount; r++) {
    for (let a = 0; a < o.accounts.length; a++) {
      const orders = Array.from({ length: o.ordersPerRequest }, (_, i) =>
        order(`${o.tag}-a${a}-r${r}-o${i}`),
      );
      jobs.push({ account: a, body: JSON.stringify({ orders }) });
    }
  }
  const ids: string[] = [];
  let non202 = 0;
  let next = 0;
  const meter = await runMeter(o.databaseUrl, o.pids ?? {});
  const sampler = o.sampleActivity ? sampleActivity(o.databaseUrl) : undefined;
  const started = performance.now();
  const fromUs = monotonicUs();
  const sender = async () => {
    while (next < jobs.length) {
      const job = jobs[next++] as (typeof jobs)[number];
      const res = await (clients[job.account] as ReturnType<typeof api>).post("/ingest/orders", job.body);
      if (res.status === 202) ids.push(res.json.request_id as string);
      else {
        non202++;
        console.error(`POST /ingest/orders: ${res.status} ${JSON.stringify(res.json).slice(0, 300)}`);
      }
    }
  };
  await Promise.all(Array.from({ length: o.submitConcurrency ?? 4 }, sender));
  const submitMs = performance.now() - started;

  // Done when no account has a pending or processing request. Pending is asked first: a request
  // only ever moves pending → processing → final, so it cannot slip between the two questions.
  let elapsedMs = 0;
  // BENCH_E2E_POLL=db asks the database instead of the API: a diagnosis of what the API polling
  // itself costs the server (each answer of GET /requests reads the stored request body).
  const observer = POLL_DB ? postgres(o.databaseUrl, { max: 1, onnotice: () => {} }) : undefined;
  const observed = o.accounts.map((a) => a.accountId);
  for (;;) {
    let busy = false;
    if (observer) {
      const [row] = await observer<{ n: number }[]>`
        select count(*)::int n from requests
         where account_id = any(${observed}) and status in ('pending', 'processing')`;
      busy = (row?.n ?? 0) > 0;
    }
    for (const c of observer ? [] : clients) {
      for (const status of ["pending", "processing"]) {
        const res = await c.get<{ data: unknown[] }>(`/requests?status=${status}&limit=1`);
        if (res.status !== 200) throw new Error(`GET /requests: ${res.status}`);
        if (res.json.data.length > 0) busy = true;
        if (busy) break;
      }
      if (busy) break;
    }
    if (!busy) {
      elapsedMs = performance.now() - started;
      break;
    }
    await new Promise((r) => setTimeout(r, POLL_MS));
  }

  await observer?.end();
  const toUs = monotonicUs();
  const cpu = await meter();
  const activity = await sampler?.stop();
  const sql = postgres(o.databaseUrl, { max: 1, onnotice: () => {} });
  const accountIds = o.accounts.map((a) => a.accountId);
  const statusRows = await sql<{ status: string; n: string }[]>`
    select status, count(*) n from requests where id = any(${ids}::uuid[]) group by status`;
  const [span] = await sql<{ ms: string; stored: string }[]>`
    select extract(epoch from max(completed_at) - min(accepted_at)) * 1000 ms,
           (select count(*) from orders where account_id = any(${accountIds}) and external_id like ${`${o.tag}-%`}) stored
      from requests where id = any(${ids}::uuid[])`;
  await sql.end();

  const orders = o.accounts.length * o.requestsPerAccount * o.ordersPerRequest;
  await new Promise((r) => setTimeout(r, 200)); // let the last log lines arrive
  let applyMs: E2eResult["applyMs"];
  if (o.serverOutput) {
    const mine = new Set(ids);
    const entries = o
      .serverOutput()
      .split("\n")
      .filter((l) => l.includes('"request processed"'))
      .map((l) => {
        try {
          return JSON.parse(l) as { ms: number; requestId: string; groupSize?: number };
        } catch {
          return undefined;
        }
      })
      .filter((e) => e !== undefined && mine.has(e.requestId));
    const times = entries.map((e) => Number(e?.ms));
    const meanGroup = entries.reduce((a, e) => a + (e?.groupSize ?? 1), 0) / Math.max(1, entries.length);
    if (times.length > 0) applyMs = { ...spread(times), sum: times.reduce((a, b) => a + b, 0), meanGroup };
  }
  return {
    orders,
    requests: jobs.length,
    elapsedMs,
    ordersPerSec: orders / (elapsedMs / 1000),
    submitMs,
    non202,
    statuses: Object.fromEntries(statusRows.map((r) => [r.status, Number(r.n)])),
    ordersStored: Number(span?.stored ?? 0),
    serverSpanMs: Number(span?.ms ?? Number.NaN),
    applyMs,
    activity,
    window: { fromUs, toUs },
    cpu,
  };
}

export const statusText = (s: Record<string, number>) =>
  Object.entries(s)
    .map(([k, v]) => `${v} ${k}`)
    .join(", ") || "none";

/** The baseline: a plain postgres.js script inserting `requests` batches of `orders` rows into a table shaped like `orders`. */
export async function runE2eBaseline(requests: number, orders: number) {
  const db = await freshDatabase();
  try {
    const out = await runJson(`${ROOT}bench/baselines/bulk-orders.ts`, [], {
      DATABASE_URL: db.url,
      BASELINE_BATCHES: String(requests),
      BASELINE_BATCH_SIZE: String(orders),
    });
    const ms = out.ms as number;
    return { ms, rows: out.rows as number, ordersPerSec: (requests * orders) / (ms / 1000) };
  } finally {
    await db.drop();
  }
}

/**
 * runE2e against `oisr-server serve` (role all, no rate limits) started on a fresh database, which
 * is dropped afterwards: the server's account and `accounts - 1` more share `requests` evenly.
 * `main` is another build's `dist/main.mjs` (a same-run A/B); `env` is added to the server's.
 */
export async function runE2eOnFreshServer(o: {
  accounts: number;
  requests: number;
  ordersPerRequest: number;
  tag: string;
  env?: Record<string, string>;
  main?: string;
  sampleActivity?: boolean;
}): Promise<E2eResult> {
  const db = await freshDatabase();
  try {
    const server = await startOisr(
      db.url,
      { OISR_RATE_LIMITS: NO_RATE_LIMITS, LOG_LEVEL: "info", ...o.env },
      o.main === undefined ? {} : { main: o.main },
    );
    try {
      const all = [{ token: server.token, accountId: server.accountId }];
      for (let i = 1; i < o.accounts; i++) all.push(await createAccount(db.url, `bench-${i}`));
      return await runE2e({
        url: server.url,
        databaseUrl: db.url,
        accounts: all,
        requestsPerAccount: o.requests / o.accounts,
        ordersPerRequest: o.ordersPerRequest,
        tag: o.tag,
        serverOutput: server.output,
        sampleActivity: o.sampleActivity,
        pids: { server: server.child.pid as number },
      });
    } finally {
      await server.stop();
    }
  } finally {
    await db.drop();
  }
}
