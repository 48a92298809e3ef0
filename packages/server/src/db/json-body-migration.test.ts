// Migration 0022 stores request bodies as `json` in a new `body` column and keeps the bodies of
// before in the jsonb column, renamed `legacy_body` (decision 028). A database is migrated to 0021
// and given a pending and a failed request through the schema of then; the server, opening it,
// applies 0022. The pending request must still be applied, both bodies read back through
// GET /requests/{id}/body's store, the failed one sent again with its body, and a request accepted
// afterwards stored as the text it arrived as. PGlite on disk, or PostgreSQL with DATABASE_URL.

import { order } from "@oisr/contract/fixtures";
import pino from "pino";
import { expect, it, vi } from "vitest";
import { loadConfig } from "../config.ts";
import { openServices } from "../services.ts";
import { ingestCall, requestIdAt } from "../test-services.ts";
import { startWorker } from "../worker/worker.ts";
import { sql } from "./client.ts";
import { databaseAtMigration } from "./migration-test-support.ts";

const before = databaseAtMigration(21);

const pendingBody = { orders: [order({ external_id: "LEGACY-1" })] };
const failedBody = { orders: [order({ external_id: "LEGACY-2" })] };
const pending = requestIdAt(Date.now() - 120_000);
const failed = requestIdAt(Date.now() - 60_000);
const quoted = (value: unknown) => JSON.stringify(value).replaceAll("'", "''");

// The server makes the day's partitions when it starts; the rows of before need theirs now.
const oldRows = `
  select oisr_ensure_table_partitions('requests', now() - interval '1 day', now() + interval '1 day', interval '1 day');
  insert into accounts (id, name) values ('acc_old', 'old');
  insert into requests (account_id, id, kind, status, trace_id, body, item_count, completed_at, errors)
  values ('acc_old', '${pending}', 'orders', 'pending', 't1', '${quoted(pendingBody)}', 1, null, null),
         ('acc_old', '${failed}', 'orders', 'failed', 't2', '${quoted(failedBody)}', 1, now(),
          '[{"pointer": "/orders/0", "code": "x", "message": "x"}]');
  insert into request_queues (account_id, open_count, due_at) values ('acc_old', 1, now());`;

it("applies, shows and sends again the bodies stored before, and stores new ones as the text accepted", async () => {
  const services = await openServices(await before.open(oldRows));
  before.onCleanup(() => services.database.close());

  // Both bodies of before read back through the body store, as the JSON they were.
  for (const [id, body] of [
    [pending, pendingBody],
    [failed, failedBody],
  ] as const) {
    const stored = await services.requests.body("acc_old", id);
    expect(JSON.parse(stored?.json ?? "null")).toEqual(body);
  }

  // The pending request of before is applied from its legacy body.
  const worker = await startWorker({
    config: loadConfig({ OISR_DATA_DIR: "memory://" }),
    logger: pino({ level: "silent" }),
    services,
  });
  try {
    await vi.waitFor(
      async () => expect((await services.requests.get("acc_old", pending))?.status).toBe("succeeded"),
      { timeout: 15_000, interval: 50 },
    );
    const retried = await services.requests.retry(
      { accountId: "acc_old", idempotencyKey: null, apiKeyId: null, traceId: "0".repeat(32) },
      failed,
    );
    if (retried.kind !== "accepted") throw new Error(`retry answered ${retried.kind}`);
    const retryId = retried.ack.request_id;
    await vi.waitFor(
      async () => expect((await services.requests.get("acc_old", retryId))?.status).toBe("succeeded"),
      { timeout: 15_000, interval: 50 },
    );
    const [orders] = await services.database.rows<{ n: number }>(
      sql`select count(*)::int as n from orders where account_id = 'acc_old' and external_id in ('LEGACY-1', 'LEGACY-2')`,
    );
    expect(orders?.n).toBe(2);

    // A request accepted now keeps its text byte for byte in `body`; `legacy_body` stays empty.
    const call = ingestCall("acc_old", {
      kind: "orders",
      body: { orders: [order({ external_id: "NEW-1" })] },
    });
    const accepted = await services.requests.accept(call);
    if (accepted.kind !== "accepted") throw new Error(`accept answered ${accepted.kind}`);
    const [row] = await services.database.rows<{ body: string; legacy: boolean }>(
      sql`select body::text as body, legacy_body is null as legacy from requests
           where account_id = 'acc_old' and id = ${accepted.ack.request_id}`,
    );
    expect(row).toEqual({ body: call.bodyJson, legacy: true });
    // The retry of a legacy request is a new request: stored as text too.
    const [retryRow] = await services.database.rows<{ has_body: boolean; has_legacy: boolean }>(
      sql`select body is not null as has_body, legacy_body is not null as has_legacy from requests
           where account_id = 'acc_old' and id = ${retryId}`,
    );
    expect(retryRow).toEqual({ has_body: true, has_legacy: false });
  } finally {
    await worker.stop();
  }

  // A row with neither body is refused.
  const refused = await services.database
    .rows(
      sql`insert into requests (account_id, id, kind, status, trace_id, item_count)
          values ('acc_old', ${requestIdAt(Date.now())}, 'orders', 'pending', 't3', 1)`,
    )
    .then(
      () => "stored",
      // drizzle wraps PGlite's error: the constraint is named by its cause.
      (err: Error) => `${err.message} ${(err.cause as Error | undefined)?.message ?? ""}`,
    );
  expect(refused).toMatch(/requests_body_present/);
});
