// Benchmark 1 + 5: ingest acknowledgment throughput and memory, full stack against bare Express.
//   node bench/ingest-ack.ts        (PostgreSQL at DATABASE_URL or 127.0.0.1:5432)
//   BENCH_PROFILE=/tmp/prof node bench/ingest-ack.ts   also prints where the server spent its CPU
import { readFileSync } from "node:fs";
import autocannon from "autocannon";
import { order } from "./lib/fixtures.ts";
import { freshDatabase, ROOT, SERVER_NODE_OPTIONS, startOisr, startProcess } from "./lib/processes.ts";
import { PROFILE_DIR, profileEnv, summarizeProfiles } from "./lib/profile.ts";
import { fmt, printBlock, printTable, ratio } from "./lib/report.ts";

const DURATION = Number(process.env.BENCH_DURATION ?? 10);
const CONNECTIONS = 50;
const body = JSON.stringify({ orders: [order("bench-1")] });

function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
}

async function load(url: string, token: string | undefined, pid: number) {
  let peakRss = 0;
  const sampler = setInterval(() => {
    peakRss = Math.max(peakRss, rssMb(pid));
  }, 200);
  // Warm up (JIT, connection pools) before measuring.
  await autocannon({
    url: `${url}/ingest/orders`,
    method: "POST",
    connections: CONNECTIONS,
    duration: 2,
    body,
    headers: headers(token),
  });
  const result = await autocannon({
    url: `${url}/ingest/orders`,
    method: "POST",
    connections: CONNECTIONS,
    duration: DURATION,
    body,
    headers: headers(token),
  });
  clearInterval(sampler);
  const non2xx = result.non2xx + result.errors;
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    peakRss,
    non2xx,
    total: result.requests.total,
  };
}

function headers(token: string | undefined): Record<string, string> {
  return { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) };
}

const dbOisr = await freshDatabase();
const dbBase = await freshDatabase();

/** Starts the API alone (its ingest limit out of the way) on dbOisr, loads it, stops it. */
async function loadOisr(env: Record<string, string>, options: { nodeDefaults?: boolean } = {}) {
  const server = await startOisr(
    dbOisr.url,
    { OISR_ROLE: "api", OISR_RATE_LIMITS: JSON.stringify({ ingest: 100_000_000 }), ...env },
    options,
  );
  try {
    return await load(server.url, server.token, server.child.pid as number);
  } finally {
    await server.stop();
  }
}

try {
  const full = await loadOisr(profileEnv("ingest-ack"));
  // The same server under Node's default heap sizing, to show what the deployed V8 option buys.
  const defaults = await loadOisr({}, { nodeDefaults: true });

  const script = `${ROOT}bench/baselines/bare-ingest.ts`;
  const withInsert = await startProcess(
    script,
    [],
    { DATABASE_URL: dbBase.url, BASELINE_INSERT: "1" },
    /API:\s+(\S+)/,
  );
  const bareInsert = await load(withInsert.match[1] as string, undefined, withInsert.child.pid as number);
  await withInsert.stop();
  const noInsert = await startProcess(script, [], {}, /API:\s+(\S+)/);
  const bare = await load(noInsert.match[1] as string, undefined, noInsert.child.pid as number);
  await noInsert.stop();

  printTable(
    `Ingest acknowledgment: POST /ingest/orders, one order, ${CONNECTIONS} connections, ${DURATION} s (PostgreSQL)`,
    [
      {
        figure: "OISR full stack, req/s",
        value: fmt(full.rps),
        baseline: `${fmt(bareInsert.rps)} (bare Express + INSERT)`,
        ratio: ratio(full.rps, bareInsert.rps),
        goal: "≥ 1.00×",
      },
      {
        figure: "OISR vs bare Express without INSERT",
        value: fmt(full.rps),
        baseline: fmt(bare.rps),
        ratio: ratio(full.rps, bare.rps),
        goal: "(context)",
      },
      {
        figure: "OISR latency p50 / p99, ms",
        value: `${full.p50} / ${full.p99}`,
        baseline: `${bareInsert.p50} / ${bareInsert.p99}`,
        goal: "",
      },
      {
        figure: "non-2xx or errors (OISR / baseline)",
        value: `${full.non2xx} of ${full.total}`,
        baseline: `${bareInsert.non2xx}`,
        goal: "0",
      },
      {
        figure: `OISR peak RSS under load, MB (node ${SERVER_NODE_OPTIONS}, as deployed)`,
        value: fmt(full.peakRss),
        baseline: `${fmt(bareInsert.peakRss)} (bare + INSERT)`,
        ratio: ratio(full.peakRss, bareInsert.peakRss),
        goal: "≤ 250 MB",
      },
      {
        figure: "same server with Node's default heap sizing: peak RSS, MB; req/s",
        value: `${fmt(defaults.peakRss)}; ${fmt(defaults.rps)}`,
        baseline: `${fmt(full.peakRss)}; ${fmt(full.rps)} (as deployed)`,
        ratio: ratio(defaults.rps, full.rps),
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
