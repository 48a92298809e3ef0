// Queue benchmark (issue 13): how fast a backlog of one-order requests drains, and whether the rate
// holds as the backlog deepens. The backlog is sent through the real API (a server with
// OISR_ROLE=api, so nothing is applied meanwhile); then a worker process (OISR_ROLE=worker) starts
// and is timed until no request is pending or processing (watched in the database).
// Peer in the same run: graphile-worker draining the same one-order upserts, concurrency 4 like
// OISR's workers, with a named queue per account (serial per account: OISR's FIFO promise) and
// without named queues. Its 1-account named-queue run is short (1,000 jobs): a single named queue
// drains at a few dozen jobs/s here, so 10,000 would take minutes.
// PGlite: the same backlog sent to a server on an embedded data directory (role api), which is
// then restarted with role all and timed from ready through GET /metrics (oisr_queue_requests) until 0.
//   node bench/queue-drain.ts
//   BENCH_QUEUE_SIZES=1000,10000,100000   backlog sizes on PostgreSQL
//   BENCH_QUEUE_PGLITE_SIZES=1000,10000   backlog sizes on PGlite (1 account)
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import postgres from "postgres";
import { graphileDrain } from "./baselines/graphile-queue.ts";
import {
  createAccount,
  freshDatabase,
  NO_RATE_LIMITS,
  SERVER_MAIN,
  startOisr,
  startOisrWorker,
  startProcess,
} from "./lib/processes.ts";
import { type Account, sendOneOrderRequests, waitDrained, waitDrainedByMetrics } from "./lib/queue.ts";
import { fmt, printTable, type Row, ratio } from "./lib/report.ts";

const SIZES = (process.env.BENCH_QUEUE_SIZES ?? "1000,10000,100000").split(",").map(Number);
const PGLITE_SIZES = (process.env.BENCH_QUEUE_PGLITE_SIZES ?? "1000,10000").split(",").map(Number);
const CONCURRENCY = 4;
const LIMIT_S = 300;

/** OISR on PostgreSQL: the backlog through the API, then one worker process timed until drained. */
async function oisrDrain(size: number, accounts: number) {
  const db = await freshDatabase();
  try {
    const api = await startOisr(db.url, { OISR_RATE_LIMITS: NO_RATE_LIMITS, OISR_ROLE: "api" });
    const all: Account[] = [{ token: api.token, accountId: api.accountId }];
    for (let i = 1; i < accounts; i++) all.push(await createAccount(db.url, `drain-${i}`));
    const sent = await sendOneOrderRequests(api.url, all, { amount: size });
    await api.stop();
    const sql = postgres(db.url, { max: 1, onnotice: () => {} });
    try {
      const worker = await startOisrWorker(db.url, { OISR_WORKER_CONCURRENCY: String(CONCURRENCY) });
      const drained = await waitDrained(sql, LIMIT_S);
      await worker.stop();
      const [bad] = await sql<
        { n: number }[]
      >`select count(*)::int as n from requests where status <> 'succeeded'`;
      return { ...drained, acked: sent.acked, notSucceeded: bad?.n ?? 0 };
    } finally {
      await sql.end();
    }
  } finally {
    await db.drop();
  }
}

async function peer(jobs: number, accounts: number, named: boolean) {
  const db = await freshDatabase();
  try {
    return await graphileDrain({
      databaseUrl: db.url,
      jobs,
      accounts,
      named,
      concurrency: CONCURRENCY,
      limitS: 120,
    });
  } finally {
    await db.drop();
  }
}

/** OISR on PGlite, one account: backlog through a role-api server, drained by a role-all restart. */
async function pgliteDrain(size: number) {
  const dir = mkdtempSync(join(tmpdir(), "oisr-drain-pglite-"));
  try {
    const env = { OISR_DATA_DIR: dir, PORT: "0", LOG_LEVEL: "warn", OISR_RATE_LIMITS: NO_RATE_LIMITS };
    const api = await startProcess(
      SERVER_MAIN,
      ["serve"],
      { ...env, OISR_ROLE: "api" },
      /Token:\s+(oisr_\S+)/,
    );
    const url = /API:\s+(\S+)/.exec(api.output())?.[1] as string;
    const token = api.match[1] as string;
    const sent = await sendOneOrderRequests(url, [{ token, accountId: "" }], { amount: size });
    await api.stop();
    const all = await startProcess(SERVER_MAIN, ["serve"], env, /API:\s+(\S+)/);
    try {
      // From ready: the start itself is the startup benchmark's figure.
      const seconds = await waitDrainedByMetrics(new URL(all.match[1] as string).origin, LIMIT_S);
      return { seconds, acked: sent.acked };
    } finally {
      await all.stop();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const rate = (n: number, s: number | null) => (s ? n / s : 0);
const rows: Row[] = [];
const rates: Record<string, number> = {};
for (const accounts of [1, 50]) {
  for (const size of SIZES) {
    const r = await oisrDrain(size, accounts);
    const perS = rate(r.acked, r.seconds);
    rates[`${accounts}:${size}`] = perS;
    rows.push({
      figure: `OISR, ${accounts} account${accounts > 1 ? "s" : ""}, ${fmt(size)} queued: drain, requests/s`,
      value: r.seconds ? fmt(perS) : `not drained in ${LIMIT_S} s (${fmt(r.open)} left)`,
      baseline: `${fmt(r.acked)} acknowledged; ${r.notSucceeded} not succeeded`,
    });
  }
  const small = rates[`${accounts}:${SIZES[0]}`] ?? 0;
  const large = rates[`${accounts}:${SIZES.at(-1)}`] ?? 0;
  rows.push({
    figure: `OISR, ${accounts} account${accounts > 1 ? "s" : ""}: drain rate at ${fmt(SIZES.at(-1) ?? 0)} against ${fmt(SIZES[0] ?? 0)}`,
    value: `${fmt(large)} / ${fmt(small)}`,
    ratio: ratio(large, small),
    goal: "≥ 0.90×",
    met: large >= 0.9 * small,
  });
}

// Printed now, so that a failure in the peer's runs below cannot lose these figures.
printTable("Queue drain: backlogs of one-order requests, OISR on PostgreSQL", rows.splice(0));

// The peer, at the shapes OISR was measured at.
const shapes = [
  { accounts: 1, jobs: 1000 },
  { accounts: 50, jobs: 10_000 },
];
for (const { accounts, jobs } of shapes) {
  const oisr = rates[`${accounts}:${jobs}`];
  if (oisr === undefined) continue;
  for (const named of [true, false]) {
    const g = await peer(jobs, accounts, named);
    const perS = rate(jobs, g.seconds);
    const goal = named ? 3 : 2;
    rows.push({
      figure: `vs graphile-worker ${named ? "with a named queue per account" : "without named queues"}, ${accounts} account${accounts > 1 ? "s" : ""}, ${fmt(jobs)} jobs, jobs/s`,
      value: fmt(oisr),
      baseline: g.seconds ? fmt(perS) : `not drained in 120 s (${fmt(g.done)} done)`,
      ratio: g.seconds ? ratio(oisr, perS) : "—",
      goal: `≥ ${goal.toFixed(2)}×`,
      met: g.seconds ? oisr >= goal * perS : oisr > 0,
    });
  }
}

for (const size of PGLITE_SIZES) {
  const r = await pgliteDrain(size);
  rows.push({
    figure: `OISR on PGlite (embedded), 1 account, ${fmt(size)} queued: drain, requests/s`,
    value: r.seconds ? fmt(rate(r.acked, r.seconds)) : `not drained in ${LIMIT_S} s`,
    baseline: `${fmt(r.acked)} acknowledged`,
    summary: true,
  });
}

printTable("Queue drain: OISR against graphile-worker (same jobs, same run), and OISR on PGlite", rows);
