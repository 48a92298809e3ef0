// Benchmark 1 + 5: ingest acknowledgment throughput and memory, full stack against bare Express.
//   node bench/ingest-ack.ts        (PostgreSQL at DATABASE_URL or 127.0.0.1:5432)
//   BENCH_PROFILE=/tmp/prof node bench/ingest-ack.ts   also prints where the server spent its CPU
//
// Every round starts each server afresh, warms it and loads it, in a rotated order, for
// BENCH_ROUNDS rounds. Fresh processes average out what one process draws by chance (the same build
// measured ±20 % from one process to the next here, from JIT and placement), and interleaving
// makes a machine that drifts during the run (this one moves by up to 2× within a day) weigh on
// every side alike. Each ratio is the median of its per-round ratios: both sides of a round ran
// seconds apart.
import { readFileSync } from "node:fs";
import autocannon from "autocannon";
import { runMeter } from "./lib/cpu.ts";
import { order } from "./lib/fixtures.ts";
import {
  createAccount,
  freshDatabase,
  ROOT,
  SERVER_NODE_OPTIONS,
  startOisr,
  startProcess,
} from "./lib/processes.ts";
import { PROFILE_DIR, profileEnv, summarizeProfiles } from "./lib/profile.ts";
import { fmt, printBlock, printTable } from "./lib/report.ts";

const DURATION = Number(process.env.BENCH_DURATION ?? 5);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const WARMUP = 2;
const CONNECTIONS = 50;
const body = JSON.stringify({ orders: [order("bench-1")] });

function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
}

interface Target {
  url: string;
  token?: string;
  pid: number;
  /** The database it writes to, whose backends' CPU counts as its own. */
  databaseUrl?: string;
  stop(): Promise<void>;
}

interface Round {
  rps: number;
  p50: number;
  p99: number;
  peakRss: number;
  non2xx: number;
  total: number;
  /** CPU per answered call, µs: the server process's, and its database backends'. */
  serverUs: number;
  postgresUs: number;
}

function fire(target: Target, duration: number) {
  return autocannon({
    url: `${target.url}/ingest/orders`,
    method: "POST",
    connections: CONNECTIONS,
    duration,
    body,
    headers: {
      "content-type": "application/json",
      ...(target.token ? { authorization: `Bearer ${target.token}` } : {}),
    },
  });
}

async function load(target: Target): Promise<Round> {
  let peakRss = 0;
  const sampler = setInterval(() => {
    peakRss = Math.max(peakRss, rssMb(target.pid));
  }, 200);
  const meter = await runMeter(target.databaseUrl ?? dbBase.url, { server: target.pid });
  const result = await fire(target, DURATION);
  const used = await meter();
  clearInterval(sampler);
  const perCall = (cores: number) => (cores / result.requests.average) * 1e6;
  return {
    serverUs: perCall(used.cores.server ?? Number.NaN),
    postgresUs: target.databaseUrl ? perCall(used.postgres) : 0,
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    peakRss,
    non2xx: result.non2xx + result.errors,
    total: result.requests.total,
  };
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? (s[mid] as number) : ((s[mid - 1] as number) + (s[mid] as number)) / 2;
};

const dbOisr = await freshDatabase();
const dbBase = await freshDatabase();
const account = await createAccount(dbOisr.url);

/** The API alone (its ingest limit out of the way) on dbOisr. */
async function oisr(env: Record<string, string>, options: { nodeDefaults?: boolean } = {}): Promise<Target> {
  const s = await startOisr(
    dbOisr.url,
    { OISR_ROLE: "api", OISR_RATE_LIMITS: JSON.stringify({ ingest: 100_000_000 }), ...env },
    { ...options, account },
  );
  return { url: s.url, token: s.token, pid: s.child.pid as number, databaseUrl: dbOisr.url, stop: s.stop };
}

async function bare(env: Record<string, string>): Promise<Target> {
  const s = await startProcess(`${ROOT}bench/baselines/bare-ingest.ts`, [], env, /API:\s+(\S+)/);
  return {
    url: s.match[1] as string,
    pid: s.child.pid as number,
    ...(env.DATABASE_URL ? { databaseUrl: env.DATABASE_URL } : {}),
    stop: s.stop,
  };
}

const starters: Record<string, () => Promise<Target>> = {
  full: () => oisr(profileEnv("ingest-ack")),
  // The same server under Node's default heap sizing, to show what the deployed V8 option buys.
  defaults: () => oisr({}, { nodeDefaults: true }),
  bareInsert: () => bare({ DATABASE_URL: dbBase.url, BASELINE_INSERT: "1" }),
  bare: () => bare({}),
};

try {
  const names = Object.keys(starters);
  const rounds: Record<string, Round[]> = Object.fromEntries(names.map((n) => [n, []]));
  for (let r = 0; r < ROUNDS; r++) {
    const order = [...names.slice(r % names.length), ...names.slice(0, r % names.length)];
    for (const name of order) {
      const target = await (starters[name] as () => Promise<Target>)();
      try {
        // Warm up (JIT, connection pools) before measuring.
        await fire(target, WARMUP);
        rounds[name]?.push(await load(target));
      } finally {
        await target.stop();
      }
    }
  }

  const of = (name: string) => rounds[name] as Round[];
  const med = (name: string, key: keyof Round) => median(of(name).map((x) => x[key]));
  const peak = (name: string) => Math.max(...of(name).map((x) => x.peakRss));
  const sum = (name: string, key: "non2xx" | "total") => of(name).reduce((a, x) => a + x[key], 0);
  /** Per-round ratios of a to b, and their median. */
  const paired = (a: string, b: string, key: "rps" | "peakRss" = "rps") => {
    const each = of(a).map((x, i) => x[key] / ((of(b)[i] as Round)[key] || 1));
    return { median: median(each), each: each.map((x) => x.toFixed(2)).join(", ") };
  };
  const vsInsert = paired("full", "bareInsert");
  const vsBare = paired("full", "bare");
  const vsDefaults = paired("defaults", "full");

  printTable(
    `Ingest acknowledgment: POST /ingest/orders, one order, ${CONNECTIONS} connections, ${ROUNDS} rounds of fresh processes, ${DURATION} s each (PostgreSQL)`,
    [
      {
        figure: "OISR full stack, req/s (median of rounds)",
        value: fmt(med("full", "rps")),
        baseline: `${fmt(med("bareInsert", "rps"))} (bare Express + INSERT)`,
        ratio: `${vsInsert.median.toFixed(2)}× (rounds: ${vsInsert.each})`,
        goal: "≥ 1.00×",
      },
      {
        figure: "OISR vs bare Express without INSERT",
        value: fmt(med("full", "rps")),
        baseline: fmt(med("bare", "rps")),
        ratio: `${vsBare.median.toFixed(2)}×`,
        goal: "(context)",
      },
      {
        figure: "OISR latency p50 / p99, ms (median of rounds)",
        value: `${med("full", "p50")} / ${med("full", "p99")}`,
        baseline: `${med("bareInsert", "p50")} / ${med("bareInsert", "p99")}`,
        goal: "",
      },
      {
        figure: "CPU per acknowledged call, µs: server process + its PostgreSQL backends (median of rounds)",
        value: `${fmt(med("full", "serverUs"))} + ${fmt(med("full", "postgresUs"))}`,
        baseline: `${fmt(med("bareInsert", "serverUs"))} + ${fmt(med("bareInsert", "postgresUs"))} (bare Express + INSERT)`,
        ratio: `${((med("full", "serverUs") + med("full", "postgresUs")) / (med("bareInsert", "serverUs") + med("bareInsert", "postgresUs"))).toFixed(2)}×`,
        goal: "(context: what the req/s ratio is made of)",
      },
      {
        figure: "non-2xx or errors (OISR / baseline)",
        value: `${sum("full", "non2xx")} of ${sum("full", "total")}`,
        baseline: `${sum("bareInsert", "non2xx")}`,
        goal: "0",
      },
      {
        figure: `OISR peak RSS under load, MB (node ${SERVER_NODE_OPTIONS}, as deployed)`,
        value: fmt(peak("full")),
        baseline: `${fmt(peak("bareInsert"))} (bare + INSERT)`,
        ratio: `${(peak("full") / peak("bareInsert")).toFixed(2)}×`,
        goal: "≤ 250 MB",
      },
      {
        figure: "same server with Node's default heap sizing: peak RSS, MB; req/s",
        value: `${fmt(peak("defaults"))}; ${fmt(med("defaults", "rps"))}`,
        baseline: `${fmt(peak("full"))}; ${fmt(med("full", "rps"))} (as deployed)`,
        ratio: `${vsDefaults.median.toFixed(2)}× (rounds: ${vsDefaults.each})`,
        goal: "(context)",
      },
    ],
  );
} finally {
  await dbOisr.drop();
  await dbBase.drop();
}

if (PROFILE_DIR)
  printBlock(
    "CPU profile of the server process (ingest-ack)",
    summarizeProfiles(PROFILE_DIR, "ingest-ack-", 30),
  );
