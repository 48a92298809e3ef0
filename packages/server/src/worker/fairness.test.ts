// Fairness across accounts (decisions 009 and 017): while one account drains a long backlog, an
// account that becomes due gets its request applied after at most about one stage of the busy
// account, even with a single worker slot; with more slots, one is kept for short work. PGlite, or
// PostgreSQL when DATABASE_URL is set.
import { order } from "@oisr/contract/fixtures";
import pino from "pino";
import { expect, it } from "vitest";
import { loadConfig } from "../config.ts";
import { sql } from "../db/client.ts";
import { SHORT_QUEUE } from "../queue/leases.ts";
import { insertPending } from "../queue/transitions.ts";
import type { Services } from "../services.ts";
import { newRequestId } from "../store/ids.ts";
import { oneOrderCall, useFreshServices } from "../test-services.ts";
import { startWorker } from "./worker.ts";

let services: Services;
useFreshServices((s) => {
  services = s;
});

const STAGE = 50;
const BACKLOG = 20_000;

/** Queues `n` one-order requests for each account, straight into the queue. */
async function queueBacklog(accounts: string[], n: number) {
  const rows = accounts.flatMap((a) =>
    Array.from({ length: n }, (_, i) => {
      const head = JSON.stringify({
        a,
        i: newRequestId(),
        k: "orders",
        t: "0".repeat(32),
        ik: null,
        p: null,
        n: 1,
      });
      return `${head.slice(0, -1)},"b":${JSON.stringify({ orders: [order({ external_id: `${a}-${i}` })] })}}`;
    }),
  );
  await insertPending(services.database, `[${rows.join(",")}]`);
}

/** Accepts one one-order request for the account, as the API does. */
async function acceptOne(accountId: string, externalId: string) {
  const outcome = await services.requests.accept(oneOrderCall(accountId, externalId));
  if (outcome.kind !== "accepted") throw new Error("not accepted");
  return outcome.ack;
}

/** How many of the account's requests are in one of these statuses. */
async function countIn(accountId: string, statuses: string[]) {
  const [row] = await services.database.rows<{ n: string }>(
    sql`select count(*) as n from requests where account_id = ${accountId} and status in ${statuses}`,
  );
  return Number(row?.n);
}

function startTestWorker(concurrency: number) {
  return startWorker({
    config: loadConfig({ OISR_WORKER_CONCURRENCY: String(concurrency), OISR_DATA_DIR: "memory://" }),
    logger: pino({ level: "silent" }),
    services,
    stageLimits: { maxRequests: STAGE, maxItems: STAGE },
  });
}

it("a quiet account's request waits for at most one stage of a busy account's backlog, with one worker slot", async () => {
  const noisy = (await services.accounts.createAccount("noisy")).account_id;
  const quiet = (await services.accounts.createAccount("quiet")).account_id;
  await queueBacklog([noisy], BACKLOG);

  const worker = await startTestWorker(1);
  try {
    const done = (accountId: string) => countIn(accountId, ["succeeded"]);
    while ((await done(noisy)) < STAGE * 2) await new Promise((r) => setTimeout(r, 5));

    const ack = await acceptOne(quiet, "Q-1");
    while ((await done(quiet)) < 1) await new Promise((r) => setTimeout(r, 5));

    // Busy-account requests that completed while the quiet one waited (accepted → completed).
    const [between] = await services.database.rows<{ n: string }>(
      sql`select count(*) as n from requests n, requests q
           where q.id = ${ack.request_id} and n.account_id = ${noisy}
             and n.completed_at > q.accepted_at and n.completed_at < q.completed_at`,
    );
    // A stage in flight when it arrived, and perhaps the one that had already started after it.
    expect(Number(between?.n)).toBeLessThanOrEqual(STAGE * 2);
    // And the busy account was far from drained: the quiet request did not simply wait its turn.
    expect(await done(noisy)).toBeLessThan(BACKLOG / 2);
  } finally {
    await worker.stop();
  }
});

it("keeps one of its slots for short work: two busy accounts on two slots run one at a time, and a quiet account is applied meanwhile", async () => {
  const busy = [
    (await services.accounts.createAccount("busy-1")).account_id,
    (await services.accounts.createAccount("busy-2")).account_id,
  ];
  const quiet = (await services.accounts.createAccount("quiet-2")).account_id;
  const backlog = 2_000;
  await queueBacklog(busy, backlog);

  const worker = await startTestWorker(2);
  // Leased accounts with long work (the test before may have left its busy account one of them).
  const leasedLong = async () =>
    Number(
      (
        await services.database.rows<{ n: string }>(
          sql`select count(*) as n from request_queues where lease_owner is not null and open_count > ${SHORT_QUEUE}`,
        )
      )[0]?.n,
    );
  const open = (accountId: string) => countIn(accountId, ["pending", "processing"]);
  const busyOpen = async () => (await open(busy[0] as string)) + (await open(busy[1] as string));
  try {
    const seen: number[] = [];
    while (seen.length < 40 && (await busyOpen()) > backlog) {
      seen.push(await leasedLong());
      await new Promise((r) => setTimeout(r, 10));
    }
    expect(seen.length).toBeGreaterThan(5);
    expect(seen).toContain(1);
    expect(Math.max(...seen)).toBe(1);

    await acceptOne(quiet, "Q-2");
    while ((await open(quiet)) > 0) await new Promise((r) => setTimeout(r, 5));
    // Applied while the busy accounts still had most of their backlog between them.
    expect(await busyOpen()).toBeGreaterThan(backlog);
  } finally {
    await worker.stop();
  }
});
