// Queue benchmark (issue 13): fairness. One account has BENCH_FAIRNESS_BACKLOG (default 100,000)
// one-order requests queued (sent through the API while the server ran as role api); then the
// server restarts with role all and drains them, while a second account sends one order every
// 100 ms and polls each request (GET /requests/{id} every 2 ms) until it has succeeded. Its
// 202 → succeeded latency should stay near one stage: goal p99 ≤ 100 ms. PostgreSQL, one process.
//   node bench/queue-fairness.ts        (BENCH_FAIRNESS_BACKLOG=20000 for a quick run)
import postgres from "postgres";
import { api, sleep } from "./lib/client.ts";
import { order } from "./lib/fixtures.ts";
import { createAccount, freshDatabase, NO_RATE_LIMITS, startOisr } from "./lib/processes.ts";
import { sendOneOrderRequests } from "./lib/queue.ts";
import { fmt, percentile, printTable } from "./lib/report.ts";

const BACKLOG = Number(process.env.BENCH_FAIRNESS_BACKLOG ?? 100_000);

const db = await freshDatabase();
try {
  const builder = await startOisr(db.url, { OISR_RATE_LIMITS: NO_RATE_LIMITS, OISR_ROLE: "api" });
  const noisy = { token: builder.token, accountId: builder.accountId };
  await sendOneOrderRequests(builder.url, [noisy], { amount: BACKLOG });
  await builder.stop();
  const quietAccount = await createAccount(db.url, "quiet");

  const server = await startOisr(db.url, { OISR_RATE_LIMITS: NO_RATE_LIMITS }, { account: noisy });
  const sql = postgres(db.url, { max: 1, onnotice: () => {} });
  try {
    const quiet = api(server.url, quietAccount.token);
    const latencies: number[] = [];
    let backlogLeft = BACKLOG;
    let sent = 0;
    // Send while the busy account still has most of its backlog.
    while (backlogLeft > BACKLOG * 0.05 && sent < 600) {
      const tick = performance.now();
      const ack = await quiet.post("/ingest/orders", JSON.stringify({ orders: [order(`F-${sent++}`)] }));
      const acked = performance.now();
      const id = ack.json.request_id as string;
      for (;;) {
        const r = await quiet.get<{ status: string }>(`/requests/${id}`);
        if (r.json.status === "succeeded") break;
        if (performance.now() - acked > 30_000) throw new Error(`request ${id} not done in 30 s`);
        await sleep(2);
      }
      latencies.push(performance.now() - acked);
      if (sent % 10 === 0) {
        const [row] = await sql<{ n: number }[]>`
          select count(*)::int as n from requests where account_id = ${noisy.accountId} and status in ('pending', 'processing')`;
        backlogLeft = row?.n ?? 0;
      }
      await sleep(Math.max(0, 100 - (performance.now() - tick)));
    }
    latencies.sort((a, b) => a - b);
    const p99 = percentile(latencies, 99);
    printTable(
      `Queue fairness: a quiet account's one-order requests while another drains ${fmt(BACKLOG)} (PostgreSQL, one process)`,
      [
        {
          figure: "quiet account: 202 received → GET shows succeeded, p99, ms",
          value: p99.toFixed(1),
          baseline: `p50 ${percentile(latencies, 50).toFixed(1)}, max ${(latencies.at(-1) ?? 0).toFixed(1)}; ${latencies.length} requests, one every 100 ms`,
          goal: "≤ 100 ms",
          met: p99 <= 100,
        },
        {
          figure: "busy account's backlog left when the quiet account stopped sending",
          value: fmt(backlogLeft),
          baseline: `of ${fmt(BACKLOG)}`,
        },
      ],
    );
  } finally {
    await sql.end();
    await server.stop();
  }
} finally {
  await db.drop();
}
