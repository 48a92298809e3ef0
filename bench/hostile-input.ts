// Benchmark: hostile input (issue 14). "Any body up to the size limit is answered within 100 ms of
// server CPU", and "at 40 concurrent 5 MiB bodies (valid and invalid), peak RSS ≤ 600 MB and
// GET /healthz p99 ≤ 200 ms", each against a bare Express app that only parses the JSON
// (bench/baselines/bare-ingest.ts; it has only POST /v2/ingest/orders and no /healthz, so it gets
// every body on that route and answers the probe 404 — the probe still measures its event loop).
//   node bench/hostile-input.ts        (PostgreSQL at DATABASE_URL or 127.0.0.1:5432)
//   BENCH_HOSTILE_PARTS=2 node bench/hostile-input.ts   part 2 only (the flood)
//   BENCH_PROFILE=/tmp/prof node bench/hostile-input.ts also writes a CPU profile of the flooded
//     server and prints where its CPU went
//
// Part 1: each body once to warm up, then 5 times 200 ms apart; the server process's CPU (utime +
// stime of all its threads from /proc, in 10 ms ticks) is read before the call and after its answer
// has fully arrived; medians of the 5. Part 2 starts fresh processes (so VmHWM, the peak RSS since
// start, is this part's): 3 waves of 40 bodies sent at once (20 valid, 20 invalid), back to back,
// while /healthz is polled every 20 ms and VmRSS sampled every 20 ms.
import { readFileSync } from "node:fs";
import http from "node:http";
import { sleep } from "./lib/client.ts";
import { cpuSeconds } from "./lib/cpu.ts";
import { order } from "./lib/fixtures.ts";
import {
  createAccount,
  freshDatabase,
  NO_RATE_LIMITS,
  ROOT,
  startOisr,
  startProcess,
} from "./lib/processes.ts";
import { PROFILE_DIR, profileEnv, summarizeProfiles } from "./lib/profile.ts";
import { fmt, printBlock, printTable, type Row, spread } from "./lib/report.ts";

const REPEATS = 5;
const LIMIT = 5 * 1024 * 1024; // the body size limit, 5 MiB
const TARGET = 4.8 * 1024 * 1024;
const WAVES = 3;
const CONCURRENT = 40;
const PARTS = (process.env.BENCH_HOSTILE_PARTS ?? "1,2").split(",");

interface Target {
  base: string; // ends in /v2
  token?: string;
  pid: number;
  stop(): Promise<void>;
}
type Answer = { status: number | string; bytes: number; ms: number };

/** One POST on its own connection; resolves once the answer has fully arrived (or the socket failed). */
function post(t: Target, path: string, body: Buffer): Promise<Answer> {
  const t0 = performance.now();
  return new Promise((resolve) => {
    let status: number | string = "no answer";
    let bytes = 0;
    // The first call settles the promise; later ones (an error after the answer) are ignored.
    const finish = (s: number | string) => resolve({ status: s, bytes, ms: performance.now() - t0 });
    const headers = {
      "content-type": "application/json",
      "content-length": String(body.length),
      ...(t.token ? { authorization: `Bearer ${t.token}` } : {}),
    };
    const req = http.request(`${t.base}${path}`, { method: "POST", agent: false, headers }, (res) => {
      status = res.statusCode ?? 0;
      res.on("data", (c: Buffer) => {
        bytes += c.length;
      });
      res.on("end", () => finish(status));
      res.on("error", () => finish(status));
    });
    // A 503 closes the connection while the body is still being sent: the answer counts if it came.
    req.on("error", (e: NodeJS.ErrnoException) =>
      finish(typeof status === "number" ? status : (e.code ?? "error")),
    );
    req.end(body);
  });
}

const healthAgent = new http.Agent({ keepAlive: true, maxSockets: 1 });
function healthz(t: Target): Promise<number> {
  const t0 = performance.now();
  return new Promise((resolve) => {
    const req = http.get(new URL("/healthz", t.base), { agent: healthAgent }, (res) => {
      res.resume();
      res.on("end", () => resolve(performance.now() - t0));
    });
    req.on("error", () => resolve(performance.now() - t0));
  });
}

function memMb(pid: number): { rss: number; hwm: number } {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = (key: string) => Number(new RegExp(`${key}:\\s+(\\d+)`).exec(status)?.[1] ?? 0) / 1024;
  return { rss: kb("VmRSS"), hwm: kb("VmHWM") };
}

// --- Bodies -------------------------------------------------------------------------------------
const json = (v: unknown) => Buffer.from(JSON.stringify(v));
const empties = (n: number) => Array.from({ length: n }, () => ({}));
/** 1000 orders (the most a body may hold) of `lines` lines each, every line of that quantity. */
const bigOrders = (lines: number, quantity: number) =>
  json({
    orders: Array.from({ length: 1000 }, (_, i) => {
      const o = order(`hostile-${i}`);
      const each = Array.from({ length: lines }, (_, j) => ({
        ...o.lines[0],
        line_id: String(j + 1),
        quantity,
      }));
      return { ...o, lines: each };
    }),
  });
// As many lines per order as keep the body under 4.8 MiB (1000 orders × ~250 lines would be ~24 MB).
const size = (lines: number) => bigOrders(lines, 2).length;
const linesEach = 1 + Math.floor((TARGET - size(1)) / (size(2) - size(1)));
const valid = bigOrders(linesEach, 2);
const invalid = bigOrders(linesEach, 0);
const deep = Buffer.from(`{"orders":${"[".repeat(2_500_000)}${"]".repeat(2_500_000)}}`);
const lines = (n: number) => json({ orders: Array.from({ length: 1000 }, () => ({ lines: empties(n) })) });
const cases = (
  [
    ["(a) returns: 100,000 × {}", "/ingest/returns", json({ returns: empties(100_000) })],
    ["(b) returns: 20,000 × {}", "/ingest/returns", json({ returns: empties(20_000) })],
    ["(c) 1000 orders × 500 lines {}", "/ingest/orders", lines(500)],
    ["(d) 1000 orders × 501 lines {}", "/ingest/orders", lines(501)],
    ["(e) nested 2.5 million levels", "/ingest/orders", deep],
    [`(f) 1000 orders × ${linesEach} lines, all quantity 0`, "/ingest/orders", invalid],
    [`(g) 1000 orders × ${linesEach} lines, valid`, "/ingest/orders", valid],
  ] as const
).map(([name, path, body]) => ({ name, path, body }));
for (const c of cases)
  if (c.body.length >= LIMIT) throw new Error(`${c.name}: ${c.body.length} B over the limit`);

// --- Servers ------------------------------------------------------------------------------------
const db = await freshDatabase();
const account = await createAccount(db.url);
async function oisr(profile?: string): Promise<Target> {
  const env = { OISR_ROLE: "api", OISR_RATE_LIMITS: NO_RATE_LIMITS, ...(profile ? profileEnv(profile) : {}) };
  const s = await startOisr(db.url, env, { account });
  return { base: s.url, token: s.token, pid: s.child.pid as number, stop: s.stop };
}
async function bare(): Promise<Target> {
  const s = await startProcess(`${ROOT}bench/baselines/bare-ingest.ts`, [], {}, /API:\s+(\S+)/);
  return { base: s.match[1] as string, pid: s.child.pid as number, stop: s.stop };
}

/** Part 1: warm-up call, then REPEATS calls; medians of server CPU and wall time. */
async function worst(t: Target, path: string, body: Buffer) {
  await post(t, path, body);
  const runs: (Answer & { cpu: number })[] = [];
  for (let i = 0; i < REPEATS; i++) {
    await sleep(200); // lets the previous call's leftover work (GC, socket close) finish first
    const before = cpuSeconds(t.pid);
    const a = await post(t, path, body);
    runs.push({ ...a, cpu: (cpuSeconds(t.pid) - before) * 1000 });
  }
  return {
    cpu: spread(runs.map((r) => r.cpu)).p50,
    ms: spread(runs.map((r) => r.ms)).p50,
    status: [...new Set(runs.map((r) => r.status))].join("/"),
    bytes: runs[0]?.bytes ?? 0,
    each: runs.map((r) => fmt(r.cpu)).join(" "),
  };
}

/** Part 2: WAVES waves of CONCURRENT large bodies, half valid, half invalid. */
async function flood(t: Target) {
  await post(t, "/ingest/orders", json({ orders: [order("warm")] }));
  await healthz(t);
  const before = memMb(t.pid);
  let sampled = before.rss;
  const sampler = setInterval(() => {
    sampled = Math.max(sampled, memMb(t.pid).rss);
  }, 20);
  const probes: number[] = [];
  let running = true;
  const poller = (async () => {
    while (running) {
      probes.push(await healthz(t));
      await sleep(20);
    }
  })();
  const counts = new Map<number | string, number>();
  const t0 = performance.now();
  for (let w = 0; w < WAVES; w++) {
    const wave = Array.from({ length: CONCURRENT }, (_, i) =>
      post(t, "/ingest/orders", i % 2 ? invalid : valid),
    );
    for (const a of await Promise.all(wave)) counts.set(a.status, (counts.get(a.status) ?? 0) + 1);
  }
  const seconds = (performance.now() - t0) / 1000;
  running = false;
  await poller;
  clearInterval(sampler);
  const after = memMb(t.pid);
  const statuses = [...counts].sort(([a], [b]) => String(a).localeCompare(String(b)));
  return { before, after, sampled, health: spread(probes), statuses, seconds };
}
type Flood = Awaited<ReturnType<typeof flood>>;

/** Part 1: each body alone, OISR against the bare parse. */
async function part1() {
  const o = await oisr();
  const b = await bare();
  const rows: Row[] = [];
  const each: string[] = [];
  try {
    for (const c of cases) {
      const x = await worst(o, c.path, c.body);
      const y = await worst(b, "/ingest/orders", c.body);
      each.push(`${c.name.slice(0, 3)}  OISR ${x.each.padEnd(20)} bare ${y.each}`);
      rows.push({
        figure: `${c.name}, ${fmt(c.body.length / 1024)} KiB`,
        value: `${fmt(x.cpu)} ms CPU (wall ${fmt(x.ms)} ms; ${x.status}, ${fmt(x.bytes)} B answer)`,
        baseline: `${fmt(y.cpu)} ms CPU (wall ${fmt(y.ms)} ms; ${y.status})`,
        ratio: y.cpu > 0 ? `${(x.cpu / y.cpu).toFixed(2)}×` : "— (parse < 1 tick)",
        goal: "≤ 100 ms",
      });
    }
  } finally {
    await o.stop();
    await b.stop();
  }
  printTable(
    `Hostile input 1: worst single bodies, server CPU per answer (median of ${REPEATS} after 1 warm-up; /proc ticks of 10 ms); baseline: bare Express JSON parse only; ratio OISR CPU / parse only`,
    rows,
  );
  printBlock("Server CPU of each measured call, ms (in 10 ms ticks)", each.join("\n"));
}

try {
  if (PARTS.includes("1")) await part1();

  const flooded: Flood[] = [];
  for (const start of [() => oisr("hostile-flood"), bare]) {
    const t = await start();
    try {
      flooded.push(await flood(t));
    } finally {
      await t.stop();
    }
  }
  const [x, y] = flooded as [Flood, Flood];
  const mem = (r: Flood) =>
    `${fmt(r.after.hwm)} MB (VmHWM; sampled max ${fmt(r.sampled)}, RSS before ${fmt(r.before.rss)})`;
  const probe = (r: Flood) =>
    `${fmt(r.health.p99)} ms p99 (p50 ${fmt(r.health.p50, 1)}, max ${fmt(r.health.max)}, n ${r.health.n})`;
  const statuses = (r: Flood) => r.statuses.map(([s, n]) => `${s} × ${n}`).join(", ");
  printTable(
    `Hostile input 2: ${WAVES} waves of ${CONCURRENT} concurrent bodies (${CONCURRENT / 2} valid (g) + ${CONCURRENT / 2} invalid (f), ~4.8 MiB each), /healthz polled every 20 ms; fresh processes`,
    [
      {
        figure: "peak RSS, MB",
        value: mem(x),
        baseline: mem(y),
        ratio: `${(x.after.hwm / y.after.hwm).toFixed(2)}×`,
        goal: "≤ 600 MB",
      },
      {
        figure: "GET /healthz latency, ms (baseline: 404)",
        value: probe(x),
        baseline: probe(y),
        goal: "≤ 200 ms",
      },
      {
        figure: "GET /healthz latency, max, ms (a liveness probe's timeout is often 1 s)",
        value: fmt(x.health.max),
        baseline: fmt(y.health.max),
        goal: "≤ 500 ms",
      },
      {
        figure: `statuses of the ${WAVES * CONCURRENT} bodies (503: past OISR_MAX_LARGE_BODIES, expected)`,
        value: statuses(x),
        baseline: statuses(y),
        goal: "(context)",
      },
      {
        figure: "time for the waves, s",
        value: fmt(x.seconds, 1),
        baseline: fmt(y.seconds, 1),
        ratio: `${(x.seconds / y.seconds).toFixed(2)}×`,
        goal: "(context)",
      },
    ],
  );
} finally {
  await db.drop();
}

if (PROFILE_DIR)
  printBlock(
    "CPU profile of the flooded server process",
    summarizeProfiles(PROFILE_DIR, "hostile-flood-", 30),
  );
