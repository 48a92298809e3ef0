// A replayed or reused idempotency key reads the key's live records (accept.ts liveKeys): one probe
// of the key's index per key in every plan, not every live key of every account. The day's
// partition is new and unanalysed here, as it is each morning; the plan is the generic one a
// prepared statement keeps. PGlite, or PostgreSQL with DATABASE_URL.
import { beforeAll, expect, it } from "vitest";
import { sql } from "../db/client.ts";
import { genericPlan, indexReads } from "../db/plan-test-support.ts";
import type { Services } from "../services.ts";
import { useFreshServices } from "../test-services.ts";
import { liveKeys } from "./accept.ts";

let services: Services;
useFreshServices((s) => {
  services = s;
});

const endpoint = "POST /ingest/orders";

beforeAll(async () => {
  await services.database.rows(
    sql`insert into idempotency_keys (account_id, endpoint, key, body_hash, response, created_at, request_id)
        select 'acc_' || (g % 10), ${endpoint}, 'key-' || g, 'hash-' || g, jsonb_build_object('n', g), now(), gen_random_uuid()
          from generate_series(1, 20000) g`,
  );
});

it("reads the wanted keys through the key's index, one probe per key", async () => {
  const wanted = JSON.stringify([{ a: "acc_5", e: endpoint, k: "key-5" }]);
  const reads = indexReads(await genericPlan(services.database, liveKeys(wanted)), "idempotency_keys");
  expect(reads.length).toBeGreaterThan(0);
  for (const read of reads) {
    expect(read).toMatch(/^idempotency_keys_.*: .*account_id = x\.a.*endpoint = x\.e.*key = x\.k/);
  }
});

it("answers each wanted key's live record, and nothing for a key never stored", async () => {
  const wanted = JSON.stringify([
    { a: "acc_5", e: endpoint, k: "key-5" },
    { a: "acc_7", e: endpoint, k: "key-17" },
    { a: "acc_1", e: endpoint, k: "key-5" },
  ]);
  const rows = await services.database.rows<{ a: string; k: string; body_hash: string }>(liveKeys(wanted));
  expect(rows.map((r) => [r.a, r.k, r.body_hash]).sort()).toEqual([
    ["acc_5", "key-5", "hash-5"],
    ["acc_7", "key-17", "hash-17"],
  ]);
});
