// The stage's lookups of what a batch references (state-loader.ts) must probe the account's unique
// index once per key in every plan, however many rows the account has: a prepared statement keeps
// its generic plan, and one made while the table looked small read every row of the account on
// each call (decision 017, "Session 19"). Here the tables are never analysed (as a new table, or
// one that grew since its last analyse) and the plan is the generic one. PGlite, or PostgreSQL with
// DATABASE_URL.
import type { SQL } from "drizzle-orm";
import { beforeAll, expect, it } from "vitest";
import { sql } from "../db/client.ts";
import { genericPlan as planOf, indexReads as reads } from "../db/plan-test-support.ts";
import type { Services } from "../services.ts";
import { useFreshServices } from "../test-services.ts";
import { byIdOrExternalId, byKeys, levelsByKey } from "./state-loader.ts";

let services: Services;
useFreshServices((s) => {
  services = s;
});

const account = "acc_loader";
const ROWS = 5000;
const genericPlan = (query: SQL) => planOf(services.database, query);

beforeAll(async () => {
  // Never analysed: autovacuum must not give the planner the account's real size mid-test.
  for (const table of ["orders", "inventory_levels"]) {
    if (services.database.driver === "postgres") {
      await services.database.rows(sql.raw(`alter table ${table} set (autovacuum_enabled = false)`));
    }
  }
  await services.database.rows(
    sql`insert into orders (account_id, id, external_id, status, source, feed_seq, updated_at, body)
        select ${account}, 'ord_' || g, 'ext-' || g, 'open', 'test', g, now(), jsonb_build_object('id', 'ord_' || g)
          from generate_series(1, ${ROWS}::int) g`,
  );
  await services.database.rows(
    sql`insert into inventory_levels (account_id, location_id, sku, as_of, body)
        select ${account}, 'WH-1', 'SKU-' || g, now(), jsonb_build_object('sku', 'SKU-' || g)
          from generate_series(1, ${ROWS}::int) g`,
  );
});

const keys = Array.from({ length: 250 }, (_, i) => `new-${i}`);

it("looks orders up by id and external_id through their unique indexes, one probe per key", async () => {
  const plan = await genericPlan(byIdOrExternalId("orders", account, keys, keys));
  expect(reads(plan, "orders")).toEqual([
    expect.stringMatching(/^orders_account_id_id_pk: .*account_id = .*\bid = k\.v/),
    expect.stringMatching(/^orders_external_idx: .*account_id = .*external_id = k_1\.v/),
  ]);
});

it("looks inventory levels up by their key, one primary-key probe per pair", async () => {
  const pairs = keys.map((sku) => ({ location_id: "WH-1", sku }));
  const plan = await genericPlan(levelsByKey(account, pairs));
  expect(reads(plan, "inventory_levels")).toEqual([
    expect.stringMatching(
      /^inventory_levels_account_id_location_id_sku_pk: .*account_id = .*location_id = .*sku = /,
    ),
  ]);
});

it("looks returns up by their order through the account's index on it, one probe per order", async () => {
  const plan = await genericPlan(byKeys("returns", "order_id", account, keys, false));
  expect(reads(plan, "returns")).toEqual([
    expect.stringMatching(/^returns_order_idx: .*account_id = .*order_id = /),
  ]);
});

it("finds the rows it is asked for", async () => {
  const rows = await services.database.rows<{ body: { id: string } }>(
    byIdOrExternalId("orders", account, ["ord_7", "ext-9"], ["ext-11"]),
  );
  expect(rows.map((r) => r.body.id).sort()).toEqual(["ord_11", "ord_7", "ord_9"]);
  const levels = await services.database.rows<{ body: { sku: string } }>(
    levelsByKey(account, [
      { location_id: "WH-1", sku: "SKU-3" },
      { location_id: "WH-1", sku: "SKU-3" },
      { location_id: "WH-2", sku: "SKU-4" },
    ]),
  );
  expect(levels.map((r) => r.body.sku)).toEqual(["SKU-3"]);
});
