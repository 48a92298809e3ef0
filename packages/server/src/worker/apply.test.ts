// Stages of the apply path (decision 007) against a real database: PGlite, or PostgreSQL when
// DATABASE_URL is set. Requests are queued with plain INSERTs, as the ingest path stores them.
import { randomUUID } from "node:crypto";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../config.ts";
import { sql } from "../db/client.ts";
import { openServices, type Services } from "../services.ts";
import { order } from "../test-fixtures.ts";
import { freshDatabaseEnv } from "../webhooks/test-support.ts";
import { applyStage, type StageOutcome } from "./apply.ts";
import { createQueue } from "./queue.ts";
import { startWorker } from "./worker.ts";

let services: Services;
let drop: () => Promise<void>;
const config = { applyLockTimeoutMs: 10_000, maxAttempts: 5 };

beforeAll(async () => {
  const db = await freshDatabaseEnv();
  drop = db.drop;
  services = await openServices({
    databaseUrl: db.env.DATABASE_URL,
    dataDir: db.env.OISR_DATA_DIR ?? "memory://",
  });
  // A poison pill: inserting this order fails inside the database, like an internal error would.
  await services.database.rows(sql`
    create function oisr_test_boom() returns trigger language plpgsql as $$
    begin
      if new.external_id = 'BOOM' then raise exception 'boom'; end if;
      return new;
    end $$`);
  await services.database.rows(sql`
    create trigger oisr_test_boom before insert on orders for each row execute function oisr_test_boom()`);
});

afterAll(async () => {
  await services?.database.close();
  await drop?.();
});

const orders = (...list: unknown[]) => ({ kind: "orders", body: { orders: list } });
const shipment = (externalId: string, orderId: string) => ({
  kind: "shipments",
  body: {
    shipments: [
      {
        external_id: externalId,
        order_id: orderId,
        carrier: "dhl",
        shipped_at: "2025-03-02T10:00:00Z",
        lines: [{ line_id: "1", quantity: 1 }],
      },
    ],
  },
});
/** Duplicate line ids: a business-rule failure of the whole request. */
const badOrder = (externalId: string) =>
  order(externalId, {
    lines: [
      { line_id: "1", sku: "SKU-1", quantity: 1, unit_price: "1.00" },
      { line_id: "1", sku: "SKU-1", quantity: 1, unit_price: "1.00" },
    ],
  });

async function account(): Promise<string> {
  return (await services.accounts.createAccount("apply-test")).account_id;
}

async function enqueue(accountId: string, ...requests: { kind: string; body: unknown }[]): Promise<string[]> {
  const ids: string[] = [];
  for (const r of requests) {
    const id = randomUUID();
    const items = Object.values(r.body as Record<string, unknown[]>)[0]?.length ?? 0;
    await services.database.rows(sql`
      insert into requests (account_id, id, kind, status, trace_id, body, item_count)
      values (${accountId}, ${id}, ${r.kind}, 'pending', ${`t-${id}`}, ${JSON.stringify(r.body)}::jsonb, ${items})`);
    ids.push(id);
  }
  return ids;
}

async function records(ids: string[]) {
  const rows = await services.database.rows<{
    id: string;
    status: string;
    attempts: number;
    result: { created: number } | null;
    errors: { code: string }[] | null;
  }>(sql`select id, status, attempts, result, errors from requests
          where id in (select jsonb_array_elements_text(${JSON.stringify(ids)}::jsonb)::uuid)`);
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids.map((id) => byId.get(id) as (typeof rows)[number]);
}

async function storedOrders(accountId: string) {
  return services.database.rows<{ external_id: string; feed_seq: number; shipped: number }>(sql`
    select external_id, feed_seq::int, (body->'lines'->0->>'quantity_shipped')::int as shipped
      from orders where account_id = ${accountId} order by feed_seq`);
}

async function claimOne(queue: ReturnType<typeof createQueue>, accountId: string) {
  const claimed = (await queue.claim(100, 30_000)).find((c) => c.accountId === accountId);
  if (!claimed) throw new Error("nothing claimed");
  return claimed;
}

describe("apply stages", () => {
  it("a group whose middle request fails: the ones before apply, it applies nothing, the ones after see the state without it", async () => {
    const acct = await account();
    const ids = await enqueue(
      acct,
      orders(order("A")),
      orders(order("X"), badOrder("Y")), // fails: X is not created either
      shipment("S-X", "X"), // so this fails too: order X does not exist
      orders(order("B")),
      shipment("S-A", "A"),
    );
    const queue = createQueue(services.database, "w1");
    const claimed = await claimOne(queue, acct);
    const outcome = await applyStage(services, queue, acct, { head: claimed }, config, {
      maxRequests: 8,
      maxItems: 100,
    });
    expect(outcome.kind === "applied" && outcome.members.map((m) => m.outcome)).toEqual([
      "succeeded",
      "failed",
      "failed",
      "succeeded",
      "succeeded",
    ]);
    const recs = await records(ids);
    expect(recs.map((r) => [r.status, r.attempts])).toEqual([
      ["succeeded", 1],
      ["failed", 1],
      ["failed", 1],
      ["succeeded", 1],
      ["succeeded", 1],
    ]);
    expect(recs[1]?.errors?.map((e) => e.code)).toEqual(["duplicate_line_id"]);
    expect(recs[2]?.errors?.map((e) => e.code)).toEqual(["order_not_found"]);
    // One feed position per changed order, in order, A in its final (shipped) state.
    expect(await storedOrders(acct)).toEqual([
      { external_id: "A", feed_seq: 1, shipped: 1 },
      { external_id: "B", feed_seq: 2, shipped: 0 },
    ]);
  });

  it("takes no more than its limits, and only never-attempted requests", async () => {
    const acct = await account();
    const ids = await enqueue(acct, orders(order("A")), orders(order("B")), orders(order("C")));
    const queue = createQueue(services.database, "w1");
    const claimed = await claimOne(queue, acct);
    await applyStage(services, queue, acct, { head: claimed }, config, { maxRequests: 2, maxItems: 100 });
    expect((await records(ids)).map((r) => r.status)).toEqual(["succeeded", "succeeded", "pending"]);

    const acct2 = await account();
    const ids2 = await enqueue(acct2, orders(order("A")), orders(order("B")));
    const claimed2 = await claimOne(queue, acct2);
    // A request on a later attempt goes alone.
    await applyStage(services, queue, acct2, { head: { ...claimed2, attempts: 2 } }, config);
    expect((await records(ids2)).map((r) => r.status)).toEqual(["succeeded", "pending"]);
    // And so does everything when only one attempt is allowed.
    const ids3 = await enqueue(acct2, orders(order("C")));
    const claimed3 = await claimOne(queue, acct2);
    await applyStage(services, queue, acct2, { head: claimed3 }, { ...config, maxAttempts: 1 });
    expect((await records([...ids2, ...ids3])).map((r) => r.status)).toEqual([
      "succeeded",
      "succeeded",
      "pending",
    ]);
  });

  it("a worker that lost its lease applies nothing, neither the head nor the requests behind it", async () => {
    const acct = await account();
    const ids = await enqueue(acct, orders(order("A")), orders(order("B")));
    const queue = createQueue(services.database, "w1");
    const claimed = await claimOne(queue, acct);
    // Its lease ran out and another worker took the request.
    await services.database.rows(sql`update requests set lease_owner = 'w2' where id = ${claimed.id}`);
    const outcome = await applyStage(services, queue, acct, { head: claimed }, config);
    expect(outcome).toEqual({ kind: "lease_lost" });
    expect((await records(ids)).map((r) => [r.status, r.attempts])).toEqual([
      ["processing", 1],
      ["pending", 0],
    ]);
    expect(await storedOrders(acct)).toEqual([]);
  });

  it("the next stage reads through the changes of the stage before, and writes only after it committed", async () => {
    const acct = await account();
    const ids = await enqueue(acct, orders(order("A")), shipment("S-A", "A"), orders(order("B")));
    const queue = createQueue(services.database, "w1");
    const claimed = await claimOne(queue, acct);
    let second: Promise<StageOutcome> | undefined;
    let commitFirst!: (ok: boolean) => void;
    const committed = new Promise<boolean>((r) => {
      commitFirst = r;
    });
    const limits = { maxRequests: 1, maxItems: 100 };
    const first = await applyStage(services, queue, acct, { head: claimed }, config, limits, {
      onReady: ({ lastSeq, changes }) => {
        second = applyStage(
          services,
          queue,
          acct,
          { afterSeq: lastSeq, previous: { changes, committed } },
          config,
          { maxRequests: 2, maxItems: 100 },
        );
      },
    });
    commitFirst(first.kind === "applied");
    const next = await second;
    expect(next?.kind === "applied" && next.members.map((m) => [m.id, m.outcome])).toEqual([
      [ids[1], "succeeded"],
      [ids[2], "succeeded"],
    ]);
    expect(await storedOrders(acct)).toEqual([
      { external_id: "A", feed_seq: 2, shipped: 1 },
      { external_id: "B", feed_seq: 3, shipped: 0 },
    ]);
  });

  it("a stage behind one that did not commit rolls back without using an attempt", async () => {
    const acct = await account();
    const ids = await enqueue(acct, orders(order("A")), orders(order("B")));
    const queue = createQueue(services.database, "w1");
    const [headSeq] = await services.database.rows<{ seq: string }>(
      sql`select seq from requests where id = ${ids[0]}`,
    );
    const outcome = await applyStage(
      services,
      queue,
      acct,
      {
        afterSeq: Number(headSeq?.seq),
        previous: {
          changes: { orders: [], returns: [], shipments: [], inventory: [] },
          committed: Promise.resolve(false),
        },
      },
      config,
    );
    expect(outcome).toEqual({ kind: "abandoned" });
    expect((await records(ids)).map((r) => [r.status, r.attempts])).toEqual([
      ["pending", 0],
      ["pending", 0],
    ]);
    expect(await storedOrders(acct)).toEqual([]);
  });
});

async function runWorker(ids: string[], groupLimits?: { maxRequests: number; maxItems: number }) {
  const worker = await startWorker({
    config: loadConfig({ OISR_MAX_ATTEMPTS: "3", OISR_RETRY_BASE_MS: "10", OISR_DATA_DIR: "memory://" }),
    logger: pino({ level: "silent" }),
    services,
    groupLimits,
  });
  try {
    const deadline = Date.now() + 20_000;
    for (;;) {
      const recs = await records(ids);
      if (recs.every((r) => ["succeeded", "failed", "dead"].includes(r.status))) break;
      if (Date.now() > deadline) throw new Error(`not done: ${JSON.stringify(recs)}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  } finally {
    await worker.stop();
  }
}

describe("worker: transient failures", () => {
  it("in a group: each request in it used an attempt; each then retries alone, so only the poisoned one dies", async () => {
    const acct = await account();
    const ids = await enqueue(acct, orders(order("A")), orders(order("BOOM")), orders(order("C")));
    await runWorker(ids);
    expect((await records(ids)).map((r) => [r.status, r.attempts])).toEqual([
      ["succeeded", 2], // the group attempt, then alone
      ["dead", 3],
      ["succeeded", 2],
    ]);
    expect((await storedOrders(acct)).map((o) => o.external_id)).toEqual(["A", "C"]);
  });

  it("in a stage behind another (PostgreSQL pipelines stages): the stage after it is abandoned without using an attempt", async () => {
    const acct = await account();
    const ids = await enqueue(acct, orders(order("A")), orders(order("BOOM")), orders(order("C")));
    await runWorker(ids, { maxRequests: 1, maxItems: 1000 });
    expect((await records(ids)).map((r) => [r.status, r.attempts])).toEqual([
      ["succeeded", 1],
      ["dead", 3],
      ["succeeded", 1],
    ]);
    expect((await storedOrders(acct)).map((o) => o.external_id)).toEqual(["A", "C"]);
  });
});
