// Same-run A/B of server builds on e2e-throughput's one-account load: 100 requests of 1,000 orders
// submitted as fast as the API takes them, timed until all are `succeeded`, each build (and the
// postgres.js baseline) on a fresh database, in a rotated order each round. On a shared machine
// the baseline alone swung 9,400-12,900 orders/s between runs a minute apart (session 21), so a
// build is judged by its ratios to the baseline of the same round, and by the CPU it used.
//   AB_MAINS=new=<dist/main.mjs>,base=<other dist/main.mjs> node bench/e2e-ab.ts
//   BENCH_ROUNDS (3), BENCH_E2E_REQUESTS (100)
import { runE2eBaseline, runE2eOnFreshServer } from "./lib/e2e.ts";
import { fmt, percentile, printTable } from "./lib/report.ts";

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const REQUESTS = Number(process.env.BENCH_E2E_REQUESTS ?? 100);
const ORDERS = 1000;
const mains = (process.env.AB_MAINS ?? "").split(",").map((s) => s.split("=") as [string, string]);
if (mains.length < 1 || mains.some(([name, main]) => !name || !main))
  throw new Error("AB_MAINS=name=path[,name=path…] is required");

/** Per round and build: orders/s, and CPU seconds of the server and of PostgreSQL per 1,000 orders. */
type Run = { ordersPerSec: number; serverCpu: number; postgresCpu: number };

async function runBuild(name: string, main: string, round: number): Promise<Run> {
  const r = await runE2eOnFreshServer({
    accounts: 1,
    requests: REQUESTS,
    ordersPerRequest: ORDERS,
    tag: `ab-${name}-${round}`,
    main,
  });
  if (r.statuses.succeeded !== REQUESTS) throw new Error(`${name}: ${JSON.stringify(r.statuses)}`);
  const seconds = r.elapsedMs / 1000;
  const perThousand = (cores: number) => (cores * seconds * 1000) / (REQUESTS * ORDERS);
  return {
    ordersPerSec: r.ordersPerSec,
    serverCpu: perThousand(r.cpu.cores.server ?? Number.NaN),
    postgresCpu: perThousand(r.cpu.postgres),
  };
}

const names = [...mains.map(([name]) => name), "baseline"];
const runs: Record<string, Run[]> = Object.fromEntries(names.map((n) => [n, []]));
const ratios: Record<string, number[]> = Object.fromEntries(mains.map(([n]) => [n, []]));
for (let round = 0; round < ROUNDS; round++) {
  const order = names.map((_, i) => names[(i + round) % names.length] as string);
  const got: Record<string, Run> = {};
  for (const name of order) {
    const main = mains.find(([n]) => n === name)?.[1];
    got[name] = main
      ? await runBuild(name, main, round)
      : { ...(await runE2eBaseline(REQUESTS, ORDERS)), serverCpu: Number.NaN, postgresCpu: Number.NaN };
    (runs[name] as Run[]).push(got[name]);
  }
  for (const [name] of mains)
    (ratios[name] as number[]).push((got[name] as Run).ordersPerSec / (got.baseline as Run).ordersPerSec);
  console.error(
    `round ${round + 1}: ${order.map((n) => `${n} ${fmt((got[n] as Run).ordersPerSec)}`).join(", ")}`,
  );
}

const median = (xs: number[]) =>
  percentile(
    [...xs].sort((a, b) => a - b),
    50,
  );
const list = (xs: number[], digits = 0) => xs.map((x) => fmt(x, digits)).join(", ");
printTable(
  `End-to-end A/B: ${REQUESTS} requests × ${fmt(ORDERS)} orders, one account, ${ROUNDS} rounds in rotated order`,
  [
    {
      figure: "baseline (postgres.js), orders/s per round",
      value: list((runs.baseline as Run[]).map((r) => r.ordersPerSec)),
    },
    ...mains.flatMap(([name]) => {
      const rs = runs[name] as Run[];
      return [
        {
          figure: `${name}: orders/s per round; ratio to the round's baseline`,
          value: list(rs.map((r) => r.ordersPerSec)),
          ratio: `${list(ratios[name] as number[], 2)} (median ${fmt(median(ratios[name] as number[]), 2)}×)`,
          goal: "≥ 0.85×",
        },
        {
          figure: `${name}: CPU seconds per 1,000 orders, server / PostgreSQL (medians)`,
          value: `${fmt(median(rs.map((r) => r.serverCpu)), 3)} / ${fmt(median(rs.map((r) => r.postgresCpu)), 3)}`,
        },
      ];
    }),
  ],
);
