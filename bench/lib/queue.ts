// Shared by the queue benchmarks (issue 13): one-order requests sent through the real API with
// autocannon, spread over accounts, and the queue watched from the database until it is drained.
import autocannon from "autocannon";
import type postgres from "postgres";
import { order } from "./fixtures.ts";

export interface Account {
  token: string;
  accountId: string;
}

let sequence = 0;
/** A one-order ingest body with a new external id each call (creates, not no-op upserts). */
export const oneOrderBody = () => JSON.stringify({ orders: [order(`Q-${sequence++}-${Date.now()}`)] });

/**
 * Posts one-order requests round-robin over the accounts with 50 connections: `amount` of them, or
 * as many as the API acknowledges for `seconds`. Returns the acknowledged count and rate.
 */
export async function sendOneOrderRequests(
  url: string,
  accounts: Account[],
  load: { amount: number } | { seconds: number },
): Promise<{ acked: number; perSecond: number; non2xx: number; p99: number }> {
  let next = 0;
  const result = await autocannon({
    url: `${url}/ingest/orders`,
    method: "POST",
    connections: 50,
    ...("amount" in load ? { amount: load.amount } : { duration: load.seconds }),
    requests: [
      {
        setupRequest: (req: Record<string, unknown>) => {
          const account = accounts[next++ % accounts.length] as Account;
          return {
            ...req,
            headers: { "content-type": "application/json", authorization: `Bearer ${account.token}` },
            body: oneOrderBody(),
          };
        },
      },
    ],
  });
  return {
    acked: result["2xx"],
    perSecond: result["2xx"] / (result.duration || 1),
    non2xx: result.non2xx + result.errors,
    p99: result.latency.p99,
  };
}

/** Counts of requests by status, read directly from the database. */
export async function statusCounts(sql: postgres.Sql): Promise<Record<string, number>> {
  const rows = await sql<
    { status: string; n: number }[]
  >`select status, count(*)::int as n from requests group by status`;
  return Object.fromEntries(rows.map((r) => [r.status, r.n]));
}

/**
 * Waits until no request is pending or processing; resolves to the seconds it took, or null when
 * `limitS` passed first (with how many were still open).
 */
export async function waitDrained(
  sql: postgres.Sql,
  limitS: number,
): Promise<{ seconds: number | null; open: number }> {
  const started = performance.now();
  for (;;) {
    const [row] = await sql<{ open: number }[]>`
      select count(*)::int as open from requests where status in ('pending', 'processing')`;
    const open = row?.open ?? 0;
    if (open === 0) return { seconds: (performance.now() - started) / 1000, open: 0 };
    if (performance.now() - started > limitS * 1000) return { seconds: null, open };
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Requests queued (pending or processing) as the server's GET /metrics reports them. */
export async function queuedByMetrics(origin: string): Promise<number> {
  const text = await (await fetch(`${origin}/metrics`)).text();
  // One series per status (pending, processing): queued is their sum. NaN when the gauge is missing.
  const values = [...text.matchAll(/^oisr_queue_requests\{status="\w+"\} (\d+)$/gm)].map((m) => Number(m[1]));
  return values.length === 0 ? Number.NaN : values.reduce((a, b) => a + b, 0);
}

/** Polls GET /metrics until nothing is queued; seconds it took, or null after `limitS`. */
export async function waitDrainedByMetrics(origin: string, limitS: number): Promise<number | null> {
  const started = performance.now();
  for (;;) {
    const queued = await queuedByMetrics(origin);
    // A renamed gauge must fail the benchmark, not read as a queue that never drains.
    if (Number.isNaN(queued)) throw new Error(`${origin}/metrics has no oisr_queue_requests gauge`);
    if (queued === 0) break;
    if (performance.now() - started > limitS * 1000) return null;
    await new Promise((r) => setTimeout(r, 20));
  }
  return (performance.now() - started) / 1000;
}
