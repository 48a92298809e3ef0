// Queue benchmark (issue 13): one-order requests at the highest rate the API acknowledges, for
// BENCH_SUSTAINED_S seconds (default 60), against one server process (role all: API and workers
// share it, as `npm start` runs), with 1 account and with 50 accounts, on PostgreSQL and on PGlite.
// Does applying keep up? applied = acknowledged − still queued at the end of the window (GET
// /metrics, oisr_queue_requests); goal applied/acknowledged ≥ 0.95, and the leftover drains fast.
//   node bench/queue-sustained.ts      (BENCH_SUSTAINED_S=15 for a quick run)
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  createAccount,
  freshDatabase,
  NO_RATE_LIMITS,
  SERVER_MAIN,
  startOisr,
  startProcess,
} from "./lib/processes.ts";
import { type Account, queuedByMetrics, sendOneOrderRequests, waitDrainedByMetrics } from "./lib/queue.ts";
import { fmt, printTable, type Row } from "./lib/report.ts";

const SECONDS = Number(process.env.BENCH_SUSTAINED_S ?? 60);
const rows: Row[] = [];

async function measure(label: string, url: string, accounts: Account[]) {
  const origin = new URL(url).origin;
  const sent = await sendOneOrderRequests(url, accounts, { seconds: SECONDS });
  const queued = await queuedByMetrics(origin);
  const leftover = await waitDrainedByMetrics(origin, 120);
  const applied = sent.acked - queued;
  rows.push({
    figure: `${label}: applied / acknowledged during ${SECONDS} s`,
    value: `${fmt(applied / SECONDS)} / ${fmt(sent.perSecond)} per s`,
    baseline: `${fmt(queued)} still queued at the end, drained in ${leftover === null ? "> 120 s" : `${leftover.toFixed(1)} s`}; ack p99 ${sent.p99} ms; ${sent.non2xx} not 2xx`,
    ratio: `${(applied / sent.acked).toFixed(3)}×`,
    goal: "≥ 0.95×",
    met: applied / sent.acked >= 0.95,
  });
}

for (const n of [1, 50]) {
  const db = await freshDatabase();
  try {
    const server = await startOisr(db.url, { OISR_RATE_LIMITS: NO_RATE_LIMITS });
    try {
      const accounts: Account[] = [{ token: server.token, accountId: server.accountId }];
      for (let i = 1; i < n; i++) accounts.push(await createAccount(db.url, `sustained-${i}`));
      await measure(`PostgreSQL, ${n} account${n > 1 ? "s" : ""}`, server.url, accounts);
    } finally {
      await server.stop();
    }
  } finally {
    await db.drop();
  }
}

for (const n of [1, 50]) {
  const dir = mkdtempSync(join(tmpdir(), "oisr-sustained-pglite-"));
  try {
    const env = { OISR_DATA_DIR: dir, PORT: "0", LOG_LEVEL: "warn", OISR_RATE_LIMITS: NO_RATE_LIMITS };
    // Accounts are made before the server takes the directory (one writer on an embedded database).
    const accounts: Account[] = [];
    for (let i = 1; i < n; i++) {
      const created = await startProcess(
        SERVER_MAIN,
        ["accounts", "create", "--name", `s-${i}`],
        env,
        /"token":"(oisr_[^"]+)"/,
      );
      accounts.push({ token: created.match[1] as string, accountId: "" });
      await created.stop();
    }
    const server = await startProcess(SERVER_MAIN, ["serve"], env, /Token:\s+(oisr_\S+)/);
    try {
      accounts.unshift({ token: server.match[1] as string, accountId: "" });
      const url = /API:\s+(\S+)/.exec(server.output())?.[1] as string;
      await measure(`PGlite (embedded), ${n} account${n > 1 ? "s" : ""}`, url, accounts);
    } finally {
      await server.stop();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

printTable(
  `Queue, sustained: one-order requests at the highest acknowledged rate for ${SECONDS} s, one process (role all)`,
  rows,
);
