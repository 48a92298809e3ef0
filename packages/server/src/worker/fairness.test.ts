// Fairness across accounts (decision 009): while one account drains a long backlog, an account that
// becomes due gets its request applied after at most about one stage of the busy account, even with
// a single worker slot. PGlite, or PostgreSQL when DATABASE_URL is set.
import { hash } from "node:crypto";
import { order } from "@oisr/contract/fixtures";
import pino from "pino";
import { expect, it } from "vitest";
import { loadConfig } from "../config.ts";
import { sql } from "../db/client.ts";
import { insertPending } from "../queue/transitions.ts";
import type { Services } from "../services.ts";
import { newRequestId } from "../store/ids.ts";
import { useFreshServices } from "../test-services.ts";
import { startWorker } from "./worker.ts";

let services: Services;
useFreshServices((s) => {
  services = s;
});

const STAGE = 50;
const BACKLOG = 20_000;

it("a quiet account's request waits for at most one stage of a busy account's backlog, with one worker slot", async () => {
  const noisy = (await services.accounts.createAccount("noisy")).account_id;
  const quiet = (await services.accounts.createAccount("quiet")).account_id;
  const rows = Array.from({ length: BACKLOG }, (_, i) => {
    const head = JSON.stringify({
      a: noisy,
      i: newRequestId(),
      k: "orders",
      t: "0".repeat(32),
      ik: null,
      p: null,
      n: 1,
    });
    return `${head.slice(0, -1)},"b":${JSON.stringify({ orders: [order({ external_id: `N-${i}` })] })}}`;
  });
  await insertPending(services.database, `[${rows.join(",")}]`);

  const worker = await startWorker({
    config: loadConfig({ OISR_WORKER_CONCURRENCY: "1", OISR_DATA_DIR: "memory://" }),
    logger: pino({ level: "silent" }),
    services,
    stageLimits: { maxRequests: STAGE, maxItems: STAGE },
  });
  try {
    const done = async (accountId: string) =>
      Number(
        (
          await services.database.rows<{ n: string }>(
            sql`select count(*) as n from requests where account_id = ${accountId} and status = 'succeeded'`,
          )
        )[0]?.n,
      );
    while ((await done(noisy)) < STAGE * 2) await new Promise((r) => setTimeout(r, 5));

    const bodyJson = JSON.stringify({ orders: [order({ external_id: "Q-1" })] });
    const ack = await services.requests.accept({
      accountId: quiet,
      kind: "orders",
      endpoint: "POST /ingest/orders",
      params: null,
      bodyJson,
      bodyHash: hash("sha256", bodyJson, "hex"),
      itemCount: 1,
      idempotencyKey: null,
      apiKeyId: null,
      traceId: "0".repeat(32),
    });
    if (ack.kind !== "accepted") throw new Error("not accepted");
    while ((await done(quiet)) < 1) await new Promise((r) => setTimeout(r, 5));

    // Busy-account requests that completed while the quiet one waited (accepted → completed).
    const [between] = await services.database.rows<{ n: string }>(
      sql`select count(*) as n from requests n, requests q
           where q.id = ${ack.ack.request_id} and n.account_id = ${noisy}
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
