// Same-run A/B of server builds on ingest-ack's load: `POST /ingest/orders`, one order, 50
// connections, every build (and bare Express + INSERT) started afresh each round in a rotated
// order, as bench/ingest-ack.ts does for one build. On a contended machine the per-round pairs are
// what to read: the same build's CPU per call swung ±30 % between rounds a minute apart (decision
// 023, session 14).
//   AB_MAINS=new=<dist/main.mjs>,base=<other dist/main.mjs> node bench/ingest-ack-ab.ts
//   BENCH_ROUNDS (3), BENCH_DURATION (5 s), AB_NO_BARE=1 (builds only), BENCH_PROFILE=<dir>
import autocannon from "autocannon";
import { runMeter } from "./lib/cpu.ts";
import { order } from "./lib/fixtures.ts";
import { createAccount, freshDatabase, ROOT, startOisr, startProcess } from "./lib/processes.ts";
import { profileEnv } from "./lib/profile.ts";

const DURATION = Number(process.env.BENCH_DURATION ?? 5);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const body = JSON.stringify({ orders: [order("bench-1")] });
const mains = (process.env.AB_MAINS ?? "").split(",").map((s) => s.split("=") as [string, string]);
if (mains.length < 1 || mains.some(([name, main]) => !name || !main))
  throw new Error("AB_MAINS=name=path[,name=path…] is required");

const dbOisr = await freshDatabase();
const dbBase = await freshDatabase();
const account = await createAccount(dbOisr.url);

interface Target {
  url: string;
  token?: string;
  pid: number;
  databaseUrl: string;
  stop(): Promise<void>;
}
/** Per round: req/s, and server and PostgreSQL CPU per call (µs). */
type Round = { rps: number; serverUs: number; postgresUs: number };

const starters: Record<string, () => Promise<Target>> = {};
for (const [name, main] of mains) {
  starters[name] = async () => {
    const env = { OISR_ROLE: "api", OISR_RATE_LIMITS: JSON.stringify({ ingest: 100_000_000 }) };
    const s = await startOisr(dbOisr.url, { ...env, ...profileEnv(`ab-${name}`) }, { account, main });
    return { url: s.url, token: s.token, pid: s.child.pid as number, databaseUrl: dbOisr.url, stop: s.stop };
  };
}
if (!process.env.AB_NO_BARE)
  starters.bareInsert = async () => {
    const env = { DATABASE_URL: dbBase.url, BASELINE_INSERT: "1" };
    const s = await startProcess(`${ROOT}bench/baselines/bare-ingest.ts`, [], env, /API:\s+(\S+)/);
    return { url: s.match[1] as string, pid: s.child.pid as number, databaseUrl: dbBase.url, stop: s.stop };
  };

const fire = (t: Target, duration: number) =>
  autocannon({
    url: `${t.url}/ingest/orders`,
    method: "POST",
    connections: 50,
    duration,
    body,
    headers: {
      "content-type": "application/json",
      ...(t.token ? { authorization: `Bearer ${t.token}` } : {}),
    },
  });

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? (s[m] as number) : ((s[m - 1] as number) + (s[m] as number)) / 2;
};
const f = (x: number) => x.toFixed(2);

const rounds: Record<string, Round[]> = {};
try {
  const names = Object.keys(starters);
  for (let r = 0; r < ROUNDS; r++) {
    const turn = [...names.slice(r % names.length), ...names.slice(0, r % names.length)];
    for (const name of turn) {
      const target = await (starters[name] as () => Promise<Target>)();
      try {
        await fire(target, 2);
        const meter = await runMeter(target.databaseUrl, { server: target.pid });
        const out = await fire(target, DURATION);
        const used = await meter();
        const rps = out.requests.average;
        const round = {
          rps,
          serverUs: ((used.cores.server ?? Number.NaN) / rps) * 1e6,
          postgresUs: (used.postgres / rps) * 1e6,
        };
        rounds[name] = [...(rounds[name] ?? []), round];
        const failed = out.non2xx + out.errors;
        console.log(
          `round ${r} ${name}: ${rps.toFixed(0)} req/s, server ${round.serverUs.toFixed(0)} µs + PostgreSQL ${round.postgresUs.toFixed(0)} µs per call; other work ${f(used.others)} cores${failed ? `; ${failed} non-2xx or errors` : ""}`,
        );
      } finally {
        await target.stop();
      }
    }
  }
} finally {
  await dbOisr.drop();
  await dbBase.drop();
}

/** Per-round ratios of a to b in `key`, and their median. */
const paired = (a: string, b: string, key: keyof Round) => {
  const each = (rounds[a] ?? []).map((x, i) => x[key] / (rounds[b]?.[i]?.[key] || 1));
  return `${f(median(each))} (${each.map(f).join(", ")})`;
};
for (const [name, xs] of Object.entries(rounds)) {
  const vsBare =
    rounds.bareInsert && name !== "bareInsert"
      ? `; req/s vs bare + INSERT ${paired(name, "bareInsert", "rps")}`
      : "";
  console.log(
    `${name}: ${median(xs.map((x) => x.rps)).toFixed(0)} req/s, server ${median(xs.map((x) => x.serverUs)).toFixed(0)} + PostgreSQL ${median(xs.map((x) => x.postgresUs)).toFixed(0)} µs per call (medians)${vsBare}`,
  );
}
const [first, second] = mains.map(([name]) => name);
if (first && second)
  console.log(
    `${first}/${second} by round: server µs per call ${paired(first, second, "serverUs")}; req/s ${paired(first, second, "rps")}`,
  );
