// Runs every benchmark, one after another, each in its own child process, and writes
// bench/RESULTS.md: the machine, a summary of the figures that have goals, then each benchmark's
// tables. `npm run bench` from the repository root.
//   BENCH_ONLY=e2e-throughput,latency     run only these
//   BENCH_WAIT_LOAD=1.5                   wait (up to BENCH_WAIT_MINUTES=10, checking every minute)
//                                         for the 1-minute load average to drop below this
//   BENCH_OUT=bench/RESULTS.md            where to write
// Figures only: a benchmark that misses its goal does not fail the run; one that crashes is
// reported as such and the run goes on.
import { execFileSync, spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { availableParallelism, cpus, tmpdir, totalmem } from "node:os";
import { join } from "node:path";
import postgres from "postgres";
import { ADMIN_URL, ROOT } from "./lib/processes.ts";
import type { SummaryRow } from "./lib/report.ts";

const BENCHMARKS: { name: string; file: string; what: string; timeoutS: number }[] = [
  {
    name: "ingest-ack",
    file: "ingest-ack.ts",
    what: "1 + 5: ingest acknowledgment throughput and memory",
    timeoutS: 300,
  },
  { name: "startup", file: "startup.ts", what: "5b: start to ready on embedded PostgreSQL", timeoutS: 300 },
  {
    name: "e2e-throughput",
    file: "e2e-throughput.ts",
    what: "2: end-to-end ingest throughput",
    timeoutS: 600,
  },
  {
    name: "body-storage",
    file: "body-storage.ts",
    what: "2: a request body's PostgreSQL CPU, stored and read as json against jsonb (decision 028)",
    timeoutS: 300,
  },
  { name: "latency", file: "latency.ts", what: "3: processing latency", timeoutS: 300 },
  {
    name: "feed-scale",
    file: "feed-scale.ts",
    what: "4: change-feed page latency at 10k and 1M orders",
    timeoutS: 900,
  },
  { name: "scale-out", file: "scale-out.ts", what: "6: one vs two worker processes", timeoutS: 600 },
  {
    name: "queue-drain",
    file: "queue-drain.ts",
    what: "queue: backlogs of one-order requests drained, against graphile-worker",
    timeoutS: 1500,
  },
  {
    name: "webhook-drain",
    file: "webhook-drain.ts",
    what: "issues 26/30: webhook deliveries/s at 2k and 50k pending, with 200k delivered, 50 subscriptions",
    timeoutS: 900,
  },
  {
    name: "queue-sustained",
    file: "queue-sustained.ts",
    what: "queue: one-order requests at the highest acknowledged rate, applied as fast",
    timeoutS: 900,
  },
  {
    name: "queue-fairness",
    file: "queue-fairness.ts",
    what: "queue: a quiet account's latency while another drains a deep backlog",
    timeoutS: 900,
  },
  {
    name: "hostile-input",
    file: "hostile-input.ts",
    what: "issue 14: worst bodies' server CPU; 40 concurrent 5 MiB bodies against RSS and /healthz",
    timeoutS: 600,
  },
  {
    name: "pooler-latency",
    file: "pooler-latency.ts",
    what: "18: 202 → succeeded through PgBouncer (transaction mode) vs direct",
    timeoutS: 600,
  },
  {
    name: "docs-paint",
    file: "docs-paint.ts",
    what: "issue 29: /docs first contentful paint in Chromium, against the page without its outline",
    timeoutS: 900,
  },
  {
    name: "growth",
    file: "growth.ts",
    what: "issue 26: 10M requests of history (BENCH_GROWTH_REQUESTS) against 10k: accept, drain, reads, retention",
    // Filling 10 million requests with their events and deliveries takes most of it.
    timeoutS: 7200,
  },
  {
    name: "sdk-overhead",
    file: "sdk-overhead.ts",
    what: "SDK overhead against raw fetch (colleague's)",
    timeoutS: 300,
  },
];

const only = process.env.BENCH_ONLY?.split(",")
  .map((s) => s.trim())
  .filter(Boolean);
const unknown = only?.filter((n) => !BENCHMARKS.some((b) => b.name === n)) ?? [];
if (unknown.length > 0) {
  console.error(
    `BENCH_ONLY: unknown ${unknown.join(", ")}; known: ${BENCHMARKS.map((b) => b.name).join(", ")}`,
  );
  process.exit(2);
}
const selected = BENCHMARKS.filter((b) => !only || only.includes(b.name));
const OUT = process.env.BENCH_OUT ?? join(ROOT, "bench", "RESULTS.md");
const WAIT_LOAD = Number(process.env.BENCH_WAIT_LOAD ?? 1.5);
const WAIT_MINUTES = Number(process.env.BENCH_WAIT_MINUTES ?? 10);

const loadavg = () =>
  readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).map(Number) as [number, number, number];
const loadText = (l: number[]) => l.map((x) => x.toFixed(2)).join(", ");
const sh = (cmd: string, args: string[]) => {
  try {
    return execFileSync(cmd, args, {
      cwd: ROOT,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "ignore"],
    }).trimEnd();
  } catch {
    return "";
  }
};

// The server benchmarks spawn the production build: rebuild it when the sources are newer.
function newestMtime(dir: string): number {
  if (!existsSync(dir)) return 0;
  let newest = 0;
  const out = sh("find", [dir, "-type", "f", "-printf", "%T@\n"]);
  for (const line of out.split("\n")) newest = Math.max(newest, Number(line) * 1000 || 0);
  return newest;
}
const dist = join(ROOT, "packages/server/dist/main.mjs");
const sources = Math.max(
  ...["packages/server/src", "packages/server/drizzle", "packages/domain/src", "spec/openapi.yaml"].map(
    (p) =>
      p.endsWith(".yaml")
        ? existsSync(join(ROOT, p))
          ? statSync(join(ROOT, p)).mtimeMs
          : 0
        : newestMtime(join(ROOT, p)),
  ),
);
let built = "production build was current";
if (!existsSync(dist) || statSync(dist).mtimeMs < sources) {
  console.log("Building the server (dist is missing or older than its sources)…");
  execFileSync("npm", ["run", "build", "-w", "@oisr/server"], { cwd: ROOT, stdio: "inherit" });
  built = "production build rebuilt from the working tree before the run";
}

// A quiet machine first, as far as we can wait for one.
const loadSeen: string[] = [];
let load = loadavg();
for (let minute = 0; load[0] >= WAIT_LOAD && minute < WAIT_MINUTES; minute++) {
  loadSeen.push(`${new Date().toISOString().slice(11, 19)} ${load[0].toFixed(2)}`);
  console.log(
    `1-minute load average ${load[0].toFixed(2)} ≥ ${WAIT_LOAD}; waiting a minute (${minute + 1}/${WAIT_MINUTES})…`,
  );
  await new Promise((r) => setTimeout(r, 60_000));
  load = loadavg();
}
const startLoad = load;
const started = new Date();

const pg = postgres(ADMIN_URL, { max: 1, onnotice: () => {} });
const [{ version: pgVersion } = { version: "?" }] = await pg<{ version: string }[]>`select version()`;
const pgSettings = await pg<{ name: string; setting: string }[]>`
  select name, current_setting(name) setting from pg_settings
   where name in ('shared_buffers', 'synchronous_commit', 'fsync', 'max_connections', 'work_mem')`;
await pg.end();

const work = mkdtempSync(join(tmpdir(), "oisr-bench-"));
const runs: {
  name: string;
  what: string;
  seconds: number;
  outcome: string;
  loadAfter: number[];
  text: string;
  summary: SummaryRow[];
}[] = [];

/** When PostgreSQL last started (null while it is unreachable): a change means someone restarted it. */
async function postmasterStart(): Promise<string | null> {
  const sql = postgres(ADMIN_URL, { max: 1, onnotice: () => {}, connect_timeout: 3 });
  try {
    const [row] = await sql<{ t: string }[]>`select pg_postmaster_start_time()::text t`;
    return row?.t ?? null;
  } catch {
    return null;
  } finally {
    await sql.end({ timeout: 1 }).catch(() => {});
  }
}

async function runOne(b: (typeof BENCHMARKS)[number], results: string, summary: string) {
  writeFileSync(results, "");
  writeFileSync(summary, "");
  const t0 = performance.now();
  const child = spawn(process.execPath, [join(ROOT, "bench", b.file)], {
    cwd: ROOT,
    env: { ...process.env, BENCH_RESULTS: results, BENCH_SUMMARY: summary },
    stdio: "inherit",
    detached: true, // its own process group, so a timeout also stops the servers it started
  });
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    try {
      process.kill(-(child.pid as number), "SIGTERM");
    } catch {}
  }, b.timeoutS * 1000);
  const code = await new Promise<number | null>((resolve) => child.once("exit", (c) => resolve(c)));
  clearTimeout(timer);
  const seconds = (performance.now() - t0) / 1000;
  const outcome = timedOut
    ? `stopped after the ${b.timeoutS} s limit`
    : code === 0
      ? "ok"
      : `exited with ${code}`;
  return { seconds, outcome };
}

for (const b of selected) {
  const results = join(work, `${b.name}.md`);
  const summary = join(work, `${b.name}.jsonl`);
  console.log(`\n=== ${b.name} (benchmark ${b.what}) ===`);
  const pgBefore = await postmasterStart();
  let { seconds, outcome } = await runOne(b, results, summary);
  // The machine is shared: if PostgreSQL was restarted under the benchmark, wait for it and run
  // the benchmark once more (said so in the outcome).
  if (outcome !== "ok" && (await postmasterStart()) !== pgBefore) {
    console.log(`PostgreSQL restarted during ${b.name}; waiting for it, then running it again…`);
    for (let i = 0; i < 60 && (await postmasterStart()) === null; i++)
      await new Promise((r) => setTimeout(r, 2000));
    const again = await runOne(b, results, summary);
    seconds = again.seconds;
    outcome = `${again.outcome} (second attempt: PostgreSQL was restarted by other work during the first)`;
  }
  runs.push({
    name: b.name,
    what: b.what,
    seconds,
    outcome,
    loadAfter: loadavg(),
    text: readFileSync(results, "utf8"),
    summary: readFileSync(summary, "utf8")
      .split("\n")
      .filter(Boolean)
      .map((l) => JSON.parse(l) as SummaryRow),
  });
}
rmSync(work, { recursive: true, force: true });
const endLoad = loadavg();

const commit = sh("git", ["rev-parse", "--short=12", "HEAD"]);
const dirty = sh("git", ["status", "--porcelain", "--untracked-files=no"])
  .split("\n")
  .filter(Boolean)
  .map((l) => l.replace(/^.. /, ""));
const dirtyText =
  dirty.length === 0
    ? ""
    : ` (plus uncommitted changes in ${dirty.length} tracked files: ${dirty.slice(0, 8).join(", ")}${dirty.length > 8 ? ", …" : ""})`;
const cell = (s: string) => s.replace(/\|/g, "\\|");
const quiet = startLoad[0] < WAIT_LOAD;
const md = [
  "# OISR benchmark results",
  "",
  "Written by `npm run bench` (`bench/run-all.ts`); every figure below comes from this one run. Figures only:",
  "goals are read, not asserted. Each benchmark compares processes started the same way, on the same machine,",
  "in the same run. How to read and re-run them: the header comment of each `bench/*.ts`.",
  "",
  "## Machine",
  "",
  `- date: ${started.toISOString()} (run took ${((Date.now() - started.getTime()) / 60_000).toFixed(1)} min)`,
  `- CPU: ${availableParallelism()} cores (nproc), ${cpus()[0]?.model ?? "?"}`,
  `- memory: ${(totalmem() / 2 ** 30).toFixed(1)} GiB`,
  `- Node.js: ${process.version}`,
  `- PostgreSQL: ${pgVersion.split(",")[0]} on 127.0.0.1 (${pgSettings.map((s) => `${s.name}=${s.setting}`).join(", ")})`,
  `- git commit: ${commit}${dirtyText}; server ${built}`,
  `- load average (1, 5, 15 min) at start: ${loadText(startLoad)}; at end: ${loadText(endLoad)}${loadSeen.length > 0 ? `; waited for it to drop below ${WAIT_LOAD} (seen: ${loadSeen.join(", ")})` : ""}`,
  quiet
    ? `- Checked: the 1-minute load average was below ${WAIT_LOAD} when the run started, so no other heavy work was running then. The machine is shared (other engineers run tests on it): the load average after each benchmark is listed in the table under the summary${
        runs.some((r) => (r.loadAfter[0] ?? 0) >= WAIT_LOAD)
          ? `, and it rose to ${Math.max(...runs.map((r) => r.loadAfter[0] ?? 0)).toFixed(2)} during the run; the CPU rows of e2e-throughput, latency and scale-out show how many cores other work took`
          : ""
      }.`
    : `- The machine was NOT quiet: the 1-minute load average was still ${startLoad[0].toFixed(2)} after waiting ${loadSeen.length} min (other engineers run tests on this shared ${availableParallelism()}-core machine). Figures are lower and noisier than on an idle machine; baselines ran in the same conditions, so ratios are fairer than absolute figures.`,
  "",
  "## Summary",
  "",
  "| figure | value | goal | ratio | met? |",
  "|---|---|---|---|---|",
  ...runs.flatMap((r) =>
    r.summary.map(
      (s) =>
        `| ${cell(`${r.name}: ${s.figure.trim()}`)} | ${cell(s.value)} | ${cell(s.goal)} | ${cell(s.ratio)} | ${s.met === null ? "—" : s.met ? "yes" : "**no**"} |`,
    ),
  ),
  "",
  "| benchmark | what | took | outcome | load average after (1, 5, 15 min) |",
  "|---|---|---|---|---|",
  ...runs.map(
    (r) => `| ${r.name} | ${r.what} | ${r.seconds.toFixed(0)} s | ${r.outcome} | ${loadText(r.loadAfter)} |`,
  ),
  "",
  ...runs.flatMap((r) => [`## ${r.name}`, "", r.text.trim() || "_(no output)_", ""]),
].join("\n");
writeFileSync(OUT, md);
console.log(`\nWrote ${OUT}`);
