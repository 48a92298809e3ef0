// Queue benchmark (issues 13 and 30): fairness. Busy accounts (1, then 10) have
// BENCH_FAIRNESS_BACKLOG (default 100,000) one-order requests queued between them (sent through
// the API while a server ran as role api); then a server with role all drains them, while a quiet
// account sends one order every 100 ms and polls each request (GET /requests/{id} every 2 ms)
// until it has succeeded. Goals: the quiet account's 202 → succeeded p99 ≤ 100 ms, and the busy
// accounts' drain rate ≥ 0.9× the baseline build's in the same run.
//
// The baseline is this build with yielding off (OISR_STAGE_YIELD=off: full stages whatever waits,
// the worker as it was before decision 017), so both drain the same schema; another build can be
// named instead, but only one that knows every migration of the backlog's template (a build from
// before migration 0014 cannot run on it). The backlog is built once per shape and copied
// (CREATE DATABASE … TEMPLATE) for each server, so this build and the baseline drain the same rows;
// their runs alternate, round by round.
//   node bench/queue-fairness.ts
//     BENCH_FAIRNESS_BACKLOG=20000          a quick run
//     BENCH_FAIRNESS_ROUNDS=3               rounds per shape (median printed with every round)
//     BENCH_FAIRNESS_BUSY=1,10              busy-account counts
//     BENCH_BASELINE_SERVER=<dist/main.mjs> compare with another build (with this schema) instead
//     BENCH_NODE_OPTIONS="--flag"           V8/Node flags for this build's server only (after the
//                                           deployed ones), e.g. against BENCH_BASELINE_SERVER set
//                                           to this build's own dist/main.mjs: a flag's A/B
//     BENCH_PROFILE=<dir>                   a CPU profile of every server process (fairness-N-<pid>.cpuprofile)
//     BENCH_FAIRNESS_SPLIT=1                the API and the worker as two processes (roles api and
//                                           worker) instead of one; event-loop and GC figures are the API's
import postgres from "postgres";
import { api, sleep } from "./lib/client.ts";
import { order } from "./lib/fixtures.ts";
import {
  cloneDatabase,
  createAccount,
  freshDatabase,
  NO_RATE_LIMITS,
  SERVER_MAIN,
  startOisr,
  startOisrWorker,
} from "./lib/processes.ts";
import { profileEnv } from "./lib/profile.ts";
import { type Account, sendOneOrderRequests } from "./lib/queue.ts";
import { fmt, percentile, printTable } from "./lib/report.ts";

const BACKLOG = Number(process.env.BENCH_FAIRNESS_BACKLOG ?? 100_000);
const ROUNDS = Number(process.env.BENCH_FAIRNESS_ROUNDS ?? 1);
const BUSY = (process.env.BENCH_FAIRNESS_BUSY ?? "1,10").split(",").map(Number);
const BASELINE = process.env.BENCH_BASELINE_SERVER;
const SPLIT = process.env.BENCH_FAIRNESS_SPLIT === "1";
const BASELINE_NAME = BASELINE ? "baseline build" : "yielding off";
const MINE_ENV: Record<string, string> = process.env.BENCH_NODE_OPTIONS
  ? { NODE_OPTIONS: process.env.BENCH_NODE_OPTIONS }
  : {};

interface Shape {
  template: { url: string; drop(): Promise<void> };
  busy: Account[];
  quiet: Account;
}

interface Run {
  p50: number;
  p99: number;
  max: number;
  samples: number;
  /** The quiet account's calls answered other than 202 (sent again). */
  refused: number;
  /** Busy accounts' requests applied per second while the quiet account was sending. */
  drainPerSec: number;
  /**
   * Where the quiet requests' time went, from the record's own timestamps (server clock, ms):
   * accepted → started (the accept's commit and NOTIFY, claim, startStage), started → completed
   * (lock and read the bodies, load state, apply, reserve positions, write changes, then
   * `finishStage`, whose clock `completed_at` is), completed → the GET that saw it (the request
   * events' insert, commit, the 2 ms poll and the GET itself), each as [p50, p99].
   */
  parts: { toStart: number[]; toApplied: number[]; toSeen: number[] };
  /**
   * The client's own GET /requests/{id} calls, ms [p50, p99], and how many a request took. The
   * poll is sequential (GET, 2 ms sleep, GET…), so a commit that lands while a GET is in flight is
   * seen one GET and 2 ms later: completed → seen carries up to one GET's duration of polling
   * granularity on top of the commit and the answering GET.
   */
  gets: { ms: number[]; perRequest: number };
  /**
   * The server's event-loop delay over the run (prom-client's monitorEventLoopDelay gauges, reset
   * at each scrape of GET /metrics: read once before and once after), ms: p50, p99, max.
   */
  loopDelay: { p50: number; p99: number; max: number };
  /**
   * The server's garbage-collection pauses over the run, by V8's kind (prom-client's
   * nodejs_gc_duration_seconds, read before and after): how many, their total, and how many took
   * over 10 ms (its bucket bounds are 1 ms, 10 ms, 100 ms…), to tell GC pauses from other stalls.
   */
  gc: GcPauses;
}

type GcPauses = Record<string, { count: number; ms: number; over10ms: number }>;

/** The cumulative GC pause histogram in a /metrics text, by kind. */
function gcPauses(text: string): GcPauses {
  const out: GcPauses = {};
  const series = /^oisr_nodejs_gc_duration_seconds_(bucket|sum|count)\{([^}]*)\} ([\d.e+-]+)$/gm;
  for (const [, part, labels = "", value] of text.matchAll(series)) {
    const kind = /kind="([^"]+)"/.exec(labels)?.[1] ?? "?";
    const entry = out[kind] ?? { count: 0, ms: 0, over10ms: 0 };
    out[kind] = entry;
    if (part === "count") entry.count = Number(value);
    else if (part === "sum") entry.ms = Number(value) * 1000;
    else if (/le="0.01"/.test(labels)) entry.over10ms = -Number(value);
  }
  for (const e of Object.values(out)) e.over10ms += e.count;
  return out;
}

/** `after` less `before`, kind by kind. */
function gcSince(before: GcPauses, after: GcPauses): GcPauses {
  const out: GcPauses = {};
  for (const [kind, a] of Object.entries(after)) {
    const b = before[kind] ?? { count: 0, ms: 0, over10ms: 0 };
    out[kind] = { count: a.count - b.count, ms: a.ms - b.ms, over10ms: a.over10ms - b.over10ms };
  }
  return out;
}

/** "major 12 (340 ms, 3 over 10 ms), minor …": the kinds that paused at all. */
const gcText = (gc: GcPauses) =>
  Object.entries(gc)
    .filter(([, e]) => e.count > 0)
    .map(([kind, e]) => `${kind} ${e.count} (${fmt(e.ms)} ms, ${e.over10ms} over 10 ms)`)
    .join(", ") || "none";

/** The server's event-loop delay since the last scrape of /metrics, ms (prom-client resets it on each scrape). */
async function scrape(origin: string): Promise<{ loopDelay: Run["loopDelay"]; gc: GcPauses }> {
  const text = await (await fetch(`${origin}/metrics`)).text();
  const gauge = (name: string) => {
    const m = text.match(
      new RegExp(`^oisr_nodejs_eventloop_lag_${name}_seconds(?:\\{[^}]*\\})? ([\\d.e+-]+)$`, "m"),
    );
    return m ? Number(m[1]) * 1000 : Number.NaN;
  };
  return { loopDelay: { p50: gauge("p50"), p99: gauge("p99"), max: gauge("max") }, gc: gcPauses(text) };
}

interface RequestRecord {
  status: string;
  accepted_at: string;
  started_at: string | null;
  completed_at: string | null;
}

async function buildShape(busyCount: number): Promise<Shape> {
  const template = await freshDatabase();
  const builder = await startOisr(template.url, { OISR_RATE_LIMITS: NO_RATE_LIMITS, OISR_ROLE: "api" });
  const busy: Account[] = [{ token: builder.token, accountId: builder.accountId }];
  for (let i = 1; i < busyCount; i++) busy.push(await createAccount(template.url, `busy-${i}`));
  await sendOneOrderRequests(builder.url, busy, { amount: BACKLOG });
  await builder.stop();
  const quiet = await createAccount(template.url, "quiet");
  return { template, busy, quiet };
}

/**
 * The busy accounts' open requests, from the queue's own per-account counters (request_queues
 * open_count: pending and processing, kept by the statements that accept and finish requests).
 * Counting the rows instead (count(*) over requests) took 286 ms of PostgreSQL time a call at a
 * 100,000 backlog, once a second during the measurement: the benchmark's own load on the machine
 * whose latency it measures.
 */
async function openCount(sql: postgres.Sql, busy: Account[]): Promise<number> {
  const [row] = await sql<{ n: number }[]>`
    select coalesce(sum(open_count), 0)::int as n from request_queues
     where account_id in ${sql(busy.map((b) => b.accountId))}`;
  return row?.n ?? 0;
}

let measured = 0;
async function measure(main: string, shape: Shape, env: Record<string, string> = {}): Promise<Run> {
  const db = await cloneDatabase(shape.template.url);
  try {
    const server = await startOisr(
      db.url,
      // BENCH_PROFILE=<dir>: a CPU profile of each server, named after the run (lib/profile.ts).
      {
        OISR_RATE_LIMITS: NO_RATE_LIMITS,
        ...profileEnv(`fairness-${++measured}`),
        ...env,
        ...(SPLIT ? { OISR_ROLE: "api" } : {}),
      },
      { account: shape.busy[0] as Account, main },
    );
    const worker = SPLIT
      ? await startOisrWorker(
          db.url,
          { OISR_RATE_LIMITS: NO_RATE_LIMITS, ...profileEnv(`fairness-${measured}-worker`), ...env },
          main,
        )
      : undefined;
    const sql = postgres(db.url, { max: 1, onnotice: () => {} });
    try {
      const quiet = api(server.url, shape.quiet.token);
      const latencies: number[] = [];
      const toStart: number[] = [];
      const toApplied: number[] = [];
      const toSeen: number[] = [];
      const gets: number[] = [];
      const origin = new URL(server.url).origin;
      const before = await scrape(origin);
      const startedAt = performance.now();
      const startLeft = await openCount(sql, shape.busy);
      let left = startLeft;
      let sent = 0;
      let refused = 0;
      // Send while the busy accounts still have most of their backlog.
      while (left > BACKLOG * 0.05 && sent < 600) {
        const tick = performance.now();
        const body = JSON.stringify({ orders: [order(`F-${sent++}`)] });
        let ack = await quiet.post("/ingest/orders", body);
        // A refusal (503 while the server sheds load) is counted and sent again: the figure is 202 → succeeded.
        while (ack.status !== 202) {
          refused += 1;
          if (performance.now() - tick > 30_000) throw new Error(`no 202 in 30 s (last ${ack.status})`);
          await sleep(50);
          ack = await quiet.post("/ingest/orders", body);
        }
        const acked = performance.now();
        const id = ack.json.request_id as string;
        for (;;) {
          const asked = performance.now();
          const r = await quiet.get<RequestRecord>(`/requests/${id}`);
          gets.push(performance.now() - asked);
          if (r.json.status === "succeeded") {
            const seen = Date.now();
            const accepted = Date.parse(r.json.accepted_at);
            const started = Date.parse(r.json.started_at ?? "");
            const completed = Date.parse(r.json.completed_at ?? "");
            toStart.push(started - accepted);
            toApplied.push(completed - started);
            toSeen.push(seen - completed);
            break;
          }
          if (performance.now() - acked > 30_000) throw new Error(`request ${id} not done in 30 s`);
          await sleep(2);
        }
        latencies.push(performance.now() - acked);
        if (sent % 10 === 0) left = await openCount(sql, shape.busy);
        await sleep(Math.max(0, 100 - (performance.now() - tick)));
      }
      const after = await scrape(origin);
      left = await openCount(sql, shape.busy);
      const seconds = (performance.now() - startedAt) / 1000;
      latencies.sort((a, b) => a - b);
      const p50p99 = (xs: number[]) => {
        xs.sort((a, b) => a - b);
        return [percentile(xs, 50), percentile(xs, 99)];
      };
      return {
        gets: { ms: p50p99(gets), perRequest: gets.length / Math.max(1, latencies.length) },
        loopDelay: after.loopDelay,
        gc: gcSince(before.gc, after.gc),
        parts: { toStart: p50p99(toStart), toApplied: p50p99(toApplied), toSeen: p50p99(toSeen) },
        p50: percentile(latencies, 50),
        p99: percentile(latencies, 99),
        max: latencies.at(-1) ?? 0,
        samples: latencies.length,
        refused,
        drainPerSec: (startLeft - left) / seconds,
      };
    } finally {
      await sql.end();
      await server.stop();
      await worker?.stop();
    }
  } finally {
    await db.drop();
  }
}

const median = (xs: number[]) =>
  percentile(
    [...xs].sort((a, b) => a - b),
    50,
  );
const partText = ([p50, p99]: number[]) => `${fmt(p50 ?? 0)}/${fmt(p99 ?? 0)}`;
const runText = (r: Run) =>
  `p99 ${fmt(r.p99, 1)} (p50 ${fmt(r.p50, 1)}, max ${fmt(r.max)}; ${r.samples} requests, ${r.refused} refused and sent again), drain ${fmt(r.drainPerSec)}/s; p50/p99 ms accepted→started ${partText(r.parts.toStart)}, started→completed ${partText(r.parts.toApplied)}, completed→seen ${partText(r.parts.toSeen)}; the client's GETs p50/p99 ${partText(r.gets.ms)} ms, ${r.gets.perRequest.toFixed(1)} a request; server event-loop delay p50/p99/max ${fmt(r.loopDelay.p50, 1)}/${fmt(r.loopDelay.p99, 1)}/${fmt(r.loopDelay.max)} ms; GC pauses ${gcText(r.gc)}`;

for (const busyCount of BUSY) {
  const shape = await buildShape(busyCount);
  try {
    const mine: Run[] = [];
    const base: Run[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      // Alternate which build goes first, so drift in the machine's load falls on both.
      const order = round % 2 === 0 ? ["mine", "base"] : ["base", "mine"];
      for (const which of order) {
        const run =
          which === "mine"
            ? await measure(SERVER_MAIN, shape, MINE_ENV)
            : await measure(BASELINE ?? SERVER_MAIN, shape, BASELINE ? {} : { OISR_STAGE_YIELD: "off" });
        (which === "mine" ? mine : base).push(run);
        console.log(
          `busy ${busyCount}, round ${round + 1}, ${which === "mine" ? `this build${MINE_ENV.NODE_OPTIONS ? ` (${MINE_ENV.NODE_OPTIONS})` : ""}` : BASELINE_NAME}: ${runText(run)}`,
        );
      }
    }
    const p99 = median(mine.map((r) => r.p99));
    const rows = [
      {
        figure: "quiet account: 202 received → GET shows succeeded, p99, ms (median of rounds)",
        value: fmt(p99, 1),
        baseline: `${BASELINE_NAME} ${fmt(median(base.map((r) => r.p99)), 1)}; rounds ${mine.map((r) => fmt(r.p99, 1)).join(", ")} vs ${base.map((r) => fmt(r.p99, 1)).join(", ")}`,
        goal: "≤ 100 ms",
        met: p99 <= 100,
      },
    ];
    {
      // Same round, same backlog: the ratio of each pair, then the median of the ratios.
      const ratios = mine.map((r, i) => r.drainPerSec / (base[i] as Run).drainPerSec);
      const m = median(ratios);
      rows.push({
        figure: `busy accounts' drain rate, this build ÷ ${BASELINE_NAME} (median of rounds)`,
        value: `${m.toFixed(2)}×`,
        baseline: `${fmt(median(mine.map((r) => r.drainPerSec)))}/s vs ${fmt(median(base.map((r) => r.drainPerSec)))}/s; rounds ${ratios.map((x) => x.toFixed(2)).join(", ")}`,
        goal: "≥ 0.9×",
        met: m >= 0.9,
      });
    }
    printTable(
      `Queue fairness: a quiet account's one-order requests while ${busyCount} busy account(s) drain ${fmt(BACKLOG)} (PostgreSQL, one process, ${ROUNDS} round(s))`,
      rows,
    );
  } finally {
    await shape.template.drop();
  }
}
