// Benchmark (issue 18): 202 → succeeded through PgBouncer in transaction mode against a direct
// connection, in one run. One-order requests at a steady rate; for each, the time from its 202 until
// `GET /v2/requests/{id}` first shows `succeeded`. Three setups on the same database, in rotated
// order over BENCH_ROUNDS rounds of fresh processes: direct; PgBouncer with LISTEN on a direct
// connection (OISR_LISTEN_DATABASE_URL); PgBouncer with polling only; and the scaled-out shape of
// issue 18: two API and two worker processes through PgBouncer (LISTEN direct), calls alternating
// between the API processes. Goal: p50 through the pooler ≤ 1.5 × direct (one process).
//   node bench/pooler-latency.ts   (starts scripts/pgbouncer.sh unless OISR_PGBOUNCER_URL names a pooler)
//   (OISR_PGBOUNCER_URL, default postgres://postgres@127.0.0.1:6544/test; BENCH_POOLER_RATE=20 per s,
//    BENCH_POOLER_SECONDS=10, BENCH_ROUNDS=3)
import { execFileSync } from "node:child_process";
import { api, sleep } from "./lib/client.ts";
import { order } from "./lib/fixtures.ts";
import {
  createAccount,
  freshDatabase,
  NO_RATE_LIMITS,
  ROOT,
  startOisr,
  startOisrWorker,
} from "./lib/processes.ts";
import { fmt, printTable, type Row, ratio, spread } from "./lib/report.ts";

const RATE = Number(process.env.BENCH_POOLER_RATE ?? 20);
const SECONDS = Number(process.env.BENCH_POOLER_SECONDS ?? 10);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const POOLER = process.env.OISR_PGBOUNCER_URL ?? "postgres://postgres@127.0.0.1:6544/test";

const through = (directUrl: string) => {
  const url = new URL(directUrl);
  url.host = new URL(POOLER).host;
  return url.toString();
};

/** `apis` API processes and `workers` worker processes, or (both 0) one all-in-one process. */
type Setup = {
  name: string;
  env: (direct: string) => Record<string, string>;
  apis?: number;
  workers?: number;
};
const SETUPS: Setup[] = [
  { name: "direct", env: (direct) => ({ DATABASE_URL: direct }) },
  {
    name: "PgBouncer (transaction), LISTEN direct",
    env: (direct) => ({
      DATABASE_URL: through(direct),
      OISR_DATABASE_POOLING: "transaction",
      OISR_LISTEN_DATABASE_URL: direct,
    }),
  },
  {
    name: "PgBouncer (transaction), polling",
    env: (direct) => ({ DATABASE_URL: through(direct), OISR_DATABASE_POOLING: "transaction" }),
  },
  {
    name: "2 API + 2 worker processes via PgBouncer, LISTEN direct",
    env: (direct) => ({
      DATABASE_URL: through(direct),
      OISR_DATABASE_POOLING: "transaction",
      OISR_LISTEN_DATABASE_URL: direct,
    }),
    apis: 2,
    workers: 2,
  },
];

/** The processes of a setup; `urls` are the API base URLs to spread calls over. */
async function startSetup(databaseUrl: string, setup: Setup, account: { token: string; accountId: string }) {
  const env: Record<string, string> = { OISR_RATE_LIMITS: NO_RATE_LIMITS, ...setup.env(databaseUrl) };
  if (!setup.apis) {
    const server = await startOisr(env.DATABASE_URL as string, env, { account });
    return { urls: [server.url], stop: () => server.stop() };
  }
  const apis: Awaited<ReturnType<typeof startOisr>>[] = [];
  for (let i = 0; i < setup.apis; i++)
    apis.push(await startOisr(env.DATABASE_URL as string, { ...env, OISR_ROLE: "api" }, { account }));
  const workers: Awaited<ReturnType<typeof startOisrWorker>>[] = [];
  for (let i = 0; i < (setup.workers ?? 0); i++)
    workers.push(await startOisrWorker(env.DATABASE_URL as string, env));
  return {
    urls: apis.map((a) => a.url),
    stop: async () => {
      await Promise.all([...apis, ...workers].map((p) => p.stop()));
    },
  };
}

async function measure(databaseUrl: string, setup: Setup, account: { token: string; accountId: string }) {
  const server = await startSetup(databaseUrl, setup, account);
  try {
    const clients = server.urls.map((url) => api(url, account.token));
    let seq = 0;
    const one = async (): Promise<number> => {
      const client = clients[seq % clients.length] as (typeof clients)[number];
      const ack = await client.post(
        "/ingest/orders",
        JSON.stringify({ orders: [order(`pool-${Date.now()}-${++seq}`)] }),
      );
      const acked = performance.now();
      if (ack.status !== 202)
        throw new Error(`${setup.name}: POST ${ack.status} ${JSON.stringify(ack.json)}`);
      for (;;) {
        const r = await client.get<{ status: string }>(`/requests/${ack.json.request_id}`);
        if (r.json.status === "succeeded") return performance.now() - acked;
        if (r.json.status !== "pending" && r.json.status !== "processing")
          throw new Error(`${setup.name}: request ended ${r.json.status}`);
      }
    };
    const steady = async (seconds: number) => {
      const start = performance.now();
      const running: Promise<number>[] = [];
      for (let k = 0; k < seconds * RATE; k++) {
        const wait = start + (k * 1000) / RATE - performance.now();
        if (wait > 0) await sleep(wait);
        running.push(one());
      }
      return Promise.all(running);
    };
    await steady(2);
    return spread(await steady(SECONDS));
  } finally {
    await server.stop();
  }
}

// Without a pooler named, start the project's own (idempotent; needs Debian's pgbouncer installed).
if (!process.env.OISR_PGBOUNCER_URL)
  execFileSync(`${ROOT}scripts/pgbouncer.sh`, ["start"], { stdio: "inherit" });

const db = await freshDatabase();
try {
  const account = await createAccount(db.url);
  const results = new Map<string, { p50: number[]; p99: number[] }>(
    SETUPS.map((s) => [s.name, { p50: [], p99: [] }]),
  );
  for (let round = 0; round < ROUNDS; round++) {
    // Rotate the order so a machine that drifts during the run weighs on every setup alike.
    const order_ = SETUPS.map((_, i) => SETUPS[(i + round) % SETUPS.length] as Setup);
    for (const setup of order_) {
      const s = await measure(db.url, setup, account);
      const r = results.get(setup.name) as { p50: number[]; p99: number[] };
      r.p50.push(s.p50);
      r.p99.push(s.p99);
    }
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;
  const direct = results.get("direct") as { p50: number[]; p99: number[] };
  const rows: Row[] = SETUPS.map((setup) => {
    const r = results.get(setup.name) as { p50: number[]; p99: number[] };
    return {
      figure: `${setup.name}: 202 → succeeded p50 (p99), ms`,
      value: `${fmt(median(r.p50), 1)} (${fmt(median(r.p99), 1)})`,
      baseline: setup.name === "direct" ? "" : `${fmt(median(direct.p50), 1)} (direct)`,
      ratio: setup.name === "direct" ? "" : ratio(median(r.p50), median(direct.p50)),
      goal: setup.name === "direct" ? "" : "≤ 1.50×",
    };
  });
  printTable(
    `Transaction pooler: one-order requests at ${RATE}/s for ${SECONDS} s, ${ROUNDS} rounds of fresh processes (medians), PgBouncer 1.18 at ${new URL(POOLER).host}`,
    rows,
  );
} finally {
  await db.drop();
}
