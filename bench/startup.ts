// Benchmark 5b: start to ready on embedded PostgreSQL (PGlite), against `node -e` doing nothing
// and a bare Express app listening, measured the same way (spawn until the ready line).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ROOT, startProcess } from "./lib/processes.ts";
import { fmt, printTable, ratio } from "./lib/report.ts";

const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const server = `${ROOT}packages/server/dist/main.mjs`;

async function timeStart(
  script: string,
  args: string[],
  env: Record<string, string>,
  ready: RegExp,
): Promise<number> {
  const started = performance.now();
  const proc = await startProcess(script, args, env, ready);
  const ms = performance.now() - started;
  await proc.stop();
  return ms;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;

const dataDir = mkdtempSync(join(tmpdir(), "oisr-start-"));
try {
  const env = { OISR_DATA_DIR: dataDir, PORT: "0", LOG_LEVEL: "warn" };
  const first = await timeStart(server, ["serve"], env, /Token:/);
  const restarts: number[] = [];
  const memory: number[] = [];
  const bare: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    restarts.push(await timeStart(server, ["serve"], env, /Token:/));
    memory.push(await timeStart(server, ["serve"], { ...env, OISR_DATA_DIR: "memory://" }, /Token:/));
    bare.push(await timeStart(`${ROOT}bench/baselines/bare-ingest.ts`, [], {}, /API:/));
  }
  printTable(`Start to ready, embedded PostgreSQL (median of ${RUNS})`, [
    {
      figure: "restart on an existing data directory, ms",
      value: fmt(median(restarts)),
      baseline: `${fmt(median(bare))} (bare Express listening)`,
      ratio: ratio(median(restarts), median(bare)),
      goal: "≤ 2,000 ms",
    },
    { figure: "first start (creates the database), ms", value: fmt(first), goal: "" },
    { figure: "OISR_DATA_DIR=memory://, ms", value: fmt(median(memory)), goal: "" },
  ]);
} finally {
  rmSync(dataDir, { recursive: true, force: true });
}
