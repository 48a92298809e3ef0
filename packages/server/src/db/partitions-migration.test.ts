// Migration 0014 converts `requests` and `idempotency_keys` in place into time-partitioned tables
// (decision 020). A database is migrated to 0013, given rows through the schema of before (a
// finished request of 3 days ago, an open one of today, one past retention, a live and an expired
// idempotency key), then opened by the server, which applies 0014: every row must read back
// through the stores as before, the sequence go on, a key replay as before, and the first
// retention pass drop what is past retention. PGlite on disk, or PostgreSQL with DATABASE_URL.

import { createHash } from "node:crypto";
import { DAY_MS } from "@oisr/contract";
import { expect, it } from "vitest";
import { openServices, type Services } from "../services.ts";
import { requestIdAt } from "../test-services.ts";
import { sql } from "./client.ts";
import { databaseAtMigration } from "./migration-test-support.ts";

const before = databaseAtMigration(13);

const body = { orders: [{ external_id: "OLD-1" }] };
const bodyJson = JSON.stringify(body);
const bodyHash = createHash("sha256").update(bodyJson).digest("hex");
const now = Date.now();
const finished = requestIdAt(now - 3 * DAY_MS);
const open = requestIdAt(now - 60_000);
const expired = requestIdAt(now - 40 * DAY_MS);

const oldRows = `
  insert into accounts (id, name) values ('acc_old', 'old');
  insert into requests (account_id, id, kind, status, trace_id, body, item_count, accepted_at, idempotency_key)
  values ('acc_old', '${expired}', 'orders', 'succeeded', 't0', '${bodyJson}', 1, now() - interval '40 days', null),
         ('acc_old', '${finished}', 'orders', 'succeeded', 't1', '${bodyJson}', 1, now() - interval '3 days', null),
         ('acc_old', '${open}', 'orders', 'pending', 't2', '${bodyJson}', 1, now() - interval '1 minute', 'live-key');
  insert into request_queues (account_id, open_count, due_at) values ('acc_old', 1, now());
  insert into idempotency_keys (account_id, endpoint, key, body_hash, request_id, response, created_at)
  values ('acc_old', 'POST /ingest/orders', 'live-key', '${bodyHash}', '${open}',
          '{"message": "accepted", "request_id": "${open}", "trace_id": "t2"}', now() - interval '1 minute'),
         ('acc_old', 'POST /ingest/orders', 'old-key', '${bodyHash}', '${finished}',
          '{"message": "accepted", "request_id": "${finished}", "trace_id": "t1"}', now() - interval '30 hours');`;

const partitionOf = async (services: Services, id: string) =>
  (
    await services.database.rows<{ p: string }>(
      sql`select tableoid::regclass::text as p from requests where id = ${id}`,
    )
  )[0]?.p;

it("keeps every row of before, in the partition of its day, readable and replayable as before", async () => {
  const services = await openServices(await before.open(oldRows));
  before.onCleanup(() => services.database.close());

  const [partitioned] = await services.database.rows<{ kind: string }>(
    sql`select relkind::text as kind from pg_class where relname = 'requests'`,
  );
  expect(partitioned?.kind).toBe("p");
  expect(await services.requests.get("acc_old", finished)).toMatchObject({
    status: "succeeded",
    traceId: "t1",
  });
  expect(await services.requests.get("acc_old", open)).toMatchObject({
    status: "pending",
    idempotencyKey: "live-key",
  });
  expect(await services.requests.get("acc_old", expired)).toMatchObject({ status: "succeeded" });
  const day = (ms: number) => new Date(ms).toISOString().slice(0, 10).replaceAll("-", "");
  expect(await partitionOf(services, finished)).toBe(`requests_p${day(now - 3 * DAY_MS)}_000000`);

  const keyed = (key: string) => ({
    accountId: "acc_old",
    kind: "orders" as const,
    endpoint: "POST /ingest/orders",
    params: null,
    bodyJson,
    bodyHash,
    itemCount: 1,
    idempotencyKey: key,
    apiKeyId: null,
    traceId: "0".repeat(32),
  });
  expect(await services.requests.accept(keyed("live-key"))).toMatchObject({
    kind: "replayed",
    ack: { request_id: open },
  });
  const renewed = await services.requests.accept(keyed("old-key"));
  expect(renewed.kind).toBe("accepted");

  // The sequence goes on from the old table's.
  const seqs = await services.database.rows<{ id: string; seq: number }>(
    sql`select id::text, seq from requests where account_id = 'acc_old' order by seq`,
  );
  expect(seqs.at(-1)?.id).toBe(renewed.kind === "accepted" ? renewed.ack.request_id : "");
  expect(new Set(seqs.map((s) => Number(s.seq))).size).toBe(seqs.length);

  // The first pass drops the partition past retention and keeps the rest.
  const pass = await services.retention.run();
  expect(pass.tables.requests.rows_dropped).toBe(1);
  expect(await services.requests.get("acc_old", expired)).toBeUndefined();
  expect(await services.requests.get("acc_old", finished)).toBeDefined();
  const [left] = await services.database.rows<{ n: string }>(
    sql`select count(*) as n from pg_class where relname in ('requests_unpartitioned', 'idempotency_keys_unpartitioned')`,
  );
  expect(Number(left?.n)).toBe(0);
  // initdb and fourteen migrations in WebAssembly on a disk directory: tens of seconds on a busy machine.
}, 180_000);
