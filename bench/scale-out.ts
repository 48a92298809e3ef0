// Benchmark 6: scale-out of processing. The end-to-end throughput of benchmark 2 (requests of
// 1,000 orders, submit → all succeeded) with one API process (OISR_ROLE=api) and one worker
// process (OISR_ROLE=worker), against the same with two worker processes, on this machine.
// Several accounts, so that two workers have work to share (one account's requests are applied
// one at a time, whatever the number of workers).
//   node bench/scale-out.ts      (BENCH_SCALE_ACCOUNTS=4, BENCH_SCALE_REQUESTS=100)
import { availableParallelism } from "node:os";
import { meterText } from "./lib/cpu.ts";
import { runE2e, statusText } from "./lib/e2e.ts";
import {
  createAccount,
  freshDatabase,
  NO_RATE_LIMITS,
  SERVER_MAIN,
  startOisrWorker,
  startProcess,
} from "./lib/processes.ts";
import { profileEnv } from "./lib/profile.ts";
import { fmt, printTable, ratio } from "./lib/report.ts";

const ACCOUNTS = Number(process.env.BENCH_SCALE_ACCOUNTS ?? 4);
const REQUESTS = Number(process.env.BENCH_SCALE_REQUESTS ?? 100);
const ORDERS = 1000;

async function run(workers: number) {
  const db = await freshDatabase();
  try {
    const accounts = [];
    for (let i = 0; i < ACCOUNTS; i++) accounts.push(await createAccount(db.url, `scale-${i}`));
    const apiProcess = await startProcess(
      SERVER_MAIN,
      ["serve"],
      {
        DATABASE_URL: db.url,
        PORT: "0",
        LOG_LEVEL: "warn",
        OISR_ROLE: "api",
        OISR_RATE_LIMITS: NO_RATE_LIMITS,
        ...profileEnv(`scale-${workers}w-api`),
      },
      /API:\s+(\S+)/,
    );
    const workerProcesses: Awaited<ReturnType<typeof startOisrWorker>>[] = [];
    for (let w = 0; w < workers; w++) {
      workerProcesses.push(
        await startOisrWorker(db.url, { LOG_LEVEL: "info", ...profileEnv(`scale-${workers}w-worker${w}`) }),
      );
    }
    try {
      const pids: Record<string, number> = { api: apiProcess.child.pid as number };
      workerProcesses.forEach((w, i) => {
        pids[`worker${i + 1}`] = w.child.pid as number;
      });
      const result = await runE2e({
        url: apiProcess.match[1] as string,
        databaseUrl: db.url,
        accounts,
        requestsPerAccount: REQUESTS / ACCOUNTS,
        ordersPerRequest: ORDERS,
        tag: `scale-${workers}`,
        serverOutput: () => workerProcesses.map((w) => w.output()).join("\n"),
        pids,
      });
      // Which worker applied how many requests.
      const perWorker = workerProcesses.map(
        (w) =>
          w
            .output()
            .split("\n")
            .filter((l) => l.includes('"request processed"')).length,
      );
      return { ...result, perWorker };
    } finally {
      await Promise.all(workerProcesses.map((w) => w.stop()));
      await apiProcess.stop();
    }
  } finally {
    await db.drop();
  }
}

const one = await run(1);
const two = await run(2);

printTable(
  `Scale-out: 1 API process + 1 or 2 worker processes, ${ACCOUNTS} accounts × ${REQUESTS / ACCOUNTS} requests × ${fmt(ORDERS)} orders (PostgreSQL, ${availableParallelism()} cores)`,
  [
    { figure: "1 worker process, orders/s", value: fmt(one.ordersPerSec), summary: true },
    {
      figure: "2 worker processes, orders/s",
      value: fmt(two.ordersPerSec),
      baseline: `${fmt(one.ordersPerSec)} (1 worker)`,
      ratio: ratio(two.ordersPerSec, one.ordersPerSec),
      goal: "(context: bounded by 2 cores shared with PostgreSQL)",
      summary: true,
    },
    {
      figure: "wall time 1 / 2 workers, s",
      value: `${fmt(one.elapsedMs / 1000, 1)} / ${fmt(two.elapsedMs / 1000, 1)}`,
    },
    {
      figure: "apply per request p50 (1 / 2 workers), ms",
      value: `${fmt(one.applyMs?.p50 ?? Number.NaN)} / ${fmt(two.applyMs?.p50 ?? Number.NaN)}`,
    },
    { figure: "requests applied by each worker (2 workers)", value: two.perWorker.join(" / ") },
    { figure: "CPU cores used on average, 1 worker", value: meterText(one.cpu) },
    { figure: "CPU cores used on average, 2 workers", value: meterText(two.cpu) },
    {
      figure: "request outcomes (1 worker; 2 workers)",
      value: `${statusText(one.statuses)}; ${statusText(two.statuses)}`,
    },
  ],
);
