// Transaction-pooler mode (OISR_DATABASE_POOLING=transaction) without a LISTEN connection: wake-ups
// come from short polling, and a request still goes from 202 to succeeded. Through PgBouncer when
// OISR_PGBOUNCER_URL is set (scripts/pgbouncer.sh), else straight to PostgreSQL in the same mode.
import { order } from "@oisr/contract/fixtures";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../config.ts";
import { type RunningServer, startServer } from "../server.ts";
import type { Database } from "./database.ts";
import { freshDatabase } from "./fresh-database.ts";
import { openPostgres, POLL_PAYLOAD } from "./postgres.ts";
import { webhookSubscriptions } from "./webhook-schema.ts";

const adminUrl = process.env.DATABASE_URL;

describe.runIf(adminUrl)("PostgreSQL behind a transaction pooler, no LISTEN connection", () => {
  let fresh: { url: string; drop(): Promise<void> };
  let server: RunningServer;
  beforeAll(async () => {
    fresh = await freshDatabase(adminUrl as string);
    const url = new URL(fresh.url);
    if (process.env.OISR_PGBOUNCER_URL) url.host = new URL(process.env.OISR_PGBOUNCER_URL).host;
    server = await startServer(
      loadConfig({
        DATABASE_URL: url.toString(),
        OISR_DATABASE_POOLING: "transaction",
        OISR_RATE_LIMITS: JSON.stringify({ ingest: 100_000, requests_read: 100_000 }),
        PORT: "0",
        LOG_LEVEL: "silent",
      }),
    );
  });
  afterAll(async () => {
    await server?.close();
    await fresh?.drop();
  });

  it("wakes listeners by polling", async () => {
    const heard: string[] = [];
    const stop = await server.services.database.listen("oisr_probe", (payload) => heard.push(payload));
    await new Promise((resolve) => setTimeout(resolve, 300));
    await stop();
    expect(heard.length).toBeGreaterThanOrEqual(2);
    expect(new Set(heard)).toEqual(new Set([POLL_PAYLOAD]));
  });

  it("applies an accepted request", async () => {
    const { token } = await server.services.accounts.createAccount("pooled");
    const headers = { authorization: `Bearer ${token}`, "content-type": "application/json" };
    const ack = await fetch(`${server.url}/ingest/orders`, {
      method: "POST",
      headers,
      body: JSON.stringify({ orders: [order({ external_id: "POOL-1" })] }),
    });
    expect(ack.status).toBe(202);
    const { request_id } = (await ack.json()) as { request_id: string };
    let status = "pending";
    for (let i = 0; i < 200 && status !== "succeeded"; i++) {
      const record = await fetch(`${server.url}/requests/${request_id}`, { headers });
      status = ((await record.json()) as { status: string }).status;
      if (status !== "succeeded") await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(status).toBe("succeeded");
  });

  it("answers 202 only once the request is stored: 20 concurrent callers reading each record at once never get 404", async () => {
    // With postgres.js's `max_pipeline: 1` (session 5's pooled setting), 1–18 of these 400 reads
    // answered 404 while the workers polled: the insert committed after its 202 had gone out.
    const { token } = await server.services.accounts.createAccount("pooled-read-your-writes");
    const headers = { authorization: `Bearer ${token}`, "content-type": "application/json" };
    const missing: string[] = [];
    await Promise.all(
      Array.from({ length: 20 }, async () => {
        for (let i = 0; i < 20; i++) {
          const ack = await fetch(`${server.url}/ingest/orders`, {
            method: "POST",
            headers,
            body: JSON.stringify({ orders: [order()] }),
          });
          const { request_id } = (await ack.json()) as { request_id: string };
          const read = await fetch(`${server.url}/requests/${request_id}`, { headers });
          await read.arrayBuffer();
          if (read.status !== 200) missing.push(`${request_id}: ${read.status}`);
        }
      }),
    );
    expect(missing).toEqual([]);
  });
});

// Pooled mode opens postgres.js without `fetch_types` (db/postgres.ts): array columns must still
// read as arrays, as they do on a direct connection (array-types.ts).
const route = !adminUrl
  ? "skipped: no DATABASE_URL"
  : process.env.OISR_PGBOUNCER_URL
    ? "through PgBouncer"
    : "straight to PostgreSQL, no OISR_PGBOUNCER_URL";
describe.runIf(adminUrl)(`array types in pooled mode (${route}), as on a direct connection`, () => {
  let fresh: { url: string; drop(): Promise<void> };
  let direct: Database;
  let pooled: Database;
  beforeAll(async () => {
    fresh = await freshDatabase(adminUrl as string);
    const url = new URL(fresh.url);
    if (process.env.OISR_PGBOUNCER_URL) url.host = new URL(process.env.OISR_PGBOUNCER_URL).host;
    direct = await openPostgres(fresh.url, { pooling: "none", maxConnections: 2 });
    pooled = await openPostgres(url.toString(), { pooling: "transaction", maxConnections: 2 });
  });
  afterAll(async () => {
    await pooled?.close();
    await direct?.close();
    await fresh?.drop();
  });

  // Elements the array literal has to quote or escape, and one that only looks like NULL.
  const awkward = ["a,b", 'say "hi"', "back\\slash", "{braces}", "", " padded ", "NULL", "ünïcødé 😀", "x"];

  it("reads text[] and the other array types a query may select", async () => {
    const query = sql`select ${`{${awkward.map((s) => `"${s.replace(/[\\"]/g, "\\$&")}"`).join(",")}}`}::text[] as awkward,
        array['a', null]::text[] as with_null, '{}'::text[] as empty, array[array['a','b'],array['c','d']] as nested,
        array['a','b']::varchar[] as varchars, array[1, 2]::int[] as ints, array[1, 2]::bigint[] as bigints,
        array[true, false] as bools, array['{"a":1}'::jsonb] as jsonbs, array[1.5]::numeric[] as numerics,
        array['a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11']::uuid[] as uuids,
        array['2024-01-02T03:04:05Z']::timestamptz[] as stamps`;
    const [fromPooled] = await pooled.rows<Record<string, unknown>>(query);
    const [fromDirect] = await direct.rows<Record<string, unknown>>(query);
    expect(fromPooled).toEqual(fromDirect);
    expect(fromPooled).toMatchObject({
      awkward,
      // postgres.js reads a NULL element of a text[] as "NULL" on a direct connection too
      // (porsager/postgres#1124); pooled mode is no different.
      with_null: ["a", "NULL"],
      empty: [],
      nested: [
        ["a", "b"],
        ["c", "d"],
      ],
      varchars: ["a", "b"],
      ints: [1, 2],
      bigints: ["1", "2"],
      bools: [true, false],
      jsonbs: [{ a: 1 }],
      uuids: ["a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11"],
    });
  });

  it("writes a subscription's events through drizzle and reads them back as the same array", async () => {
    const events = [...awkward, "order.created"];
    await pooled.db.insert(webhookSubscriptions).values({
      accountId: "acc_arrays",
      id: "whs_arrays",
      url: "https://example.com/hook",
      events,
      secret: "whsec_arrays",
    });
    const where = eq(webhookSubscriptions.id, "whs_arrays");
    const read = (database: Database) =>
      database.db.select({ events: webhookSubscriptions.events }).from(webhookSubscriptions).where(where);
    expect(await read(pooled)).toEqual([{ events }]);
    expect(await read(direct)).toEqual([{ events }]);
    const raw = sql`select events from webhook_subscriptions where id = 'whs_arrays'`;
    expect(await pooled.rows(raw)).toEqual([{ events }]);
    expect(await direct.rows(raw)).toEqual([{ events }]);
  });
});
