// Stages of the apply path (decisions 007 and 009) against a real database: PGlite, or PostgreSQL
// when DATABASE_URL is set. Requests are queued through the request store, as the ingest path does.
import { randomUUID } from "node:crypto";
import { order, shipment as shipmentOf } from "@oisr/contract/fixtures";
import pino from "pino";
import { describe, expect, it } from "vitest";
import { loadConfig } from "../config.ts";
import { sql } from "../db/client.ts";
import { createWorkerQueue, type StageLimits, type StartedRequest } from "../queue/index.ts";
import type { Services } from "../services.ts";
import {
  badOrder,
  enqueueRequests,
  installPoisonPill,
  POISON_ORDER_ID,
  type TestRequest,
  useFreshServices,
} from "../test-services.ts";
import { applyStage, type StageOutcome } from "./apply.ts";
import { describeRollback } from "./rollback.ts";
import { startWorker } from "./worker.ts";

let services: Services;
const config = { applyLockTimeoutMs: 10_000 };

useFreshServices(async (s) => {
  services = s;
  await installPoisonPill(services);
});

const orders = (...list: unknown[]) => ({ kind: "orders", body: { orders: list } });
/** Ships one of the order's first line (L1). */
const shipment = (externalId: string, orderId: string) => ({
  kind: "shipments",
  body: {
    shipments: [shipmentOf(orderId, { external_id: externalId, lines: [{ line_id: "L1", quantity: 1 }] })],
  },
});

async function account(): Promise<string> {
  return (await services.accounts.createAccount("apply-test")).account_id;
}

const enqueue = (accountId: string, ...requests: TestRequest[]) =>
  enqueueRequests(services, accountId, ...requests);

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

const LIMITS: StageLimits = { maxRequests: 8, maxItems: 100 };

/** A worker's queue that has leased the account. */
async function leased(accountId: string, workerId = `w-${randomUUID()}`) {
  const queue = createWorkerQueue(services.database, workerId, 30_000);
  // Only this test's account: other accounts' leftovers stay where they are.
  await services.database.rows(
    sql`update request_queues set lease_owner = ${workerId}, lease_until = now() + interval '30 seconds'
         where account_id = ${accountId}`,
  );
  return queue;
}

async function start(
  queue: ReturnType<typeof createWorkerQueue>,
  accountId: string,
  options: Partial<{ afterSeq: number; first: boolean; maxAttempts: number; limits: StageLimits }> = {},
): Promise<StartedRequest[]> {
  const maxAttempts = options.maxAttempts ?? 5;
  const started = await queue.startStage(accountId, options.afterSeq ?? 0, {
    first: options.first ?? true,
    group: maxAttempts >= 2,
    maxAttempts,
    limits: options.limits ?? LIMITS,
  });
  return started.kind === "started" ? started.members : [];
}

async function queueRow(accountId: string) {
  const [row] = await services.database.rows<{
    open_count: number;
    lease_owner: string | null;
    due: boolean | null;
  }>(
    sql`select open_count, lease_owner, due_at <= now() as due from request_queues where account_id = ${accountId}`,
  );
  return row;
}

describe("apply stages", () => {
  it("a group whose middle request fails: the ones before apply, it applies nothing, the ones after see the state without it", async () => {
    const acct = await account();
    const ids = await enqueue(
      acct,
      orders(order({ external_id: "A" })),
      orders(order({ external_id: "X" }), badOrder("Y")), // fails: X is not created either
      shipment("S-X", "X"), // so this fails too: order X does not exist
      orders(order({ external_id: "B" })),
      shipment("S-A", "A"),
    );
    const queue = await leased(acct);
    const members = await start(queue, acct);
    const outcome = await applyStage(services, queue, acct, { members }, config);
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
    expect((await queueRow(acct))?.open_count).toBe(0);
  });

  it("sizes a stage by requests and items, and groups only never-attempted requests", async () => {
    const acct = await account();
    const ids = await enqueue(
      acct,
      orders(order({ external_id: "A" })),
      orders(order({ external_id: "B" }), order({ external_id: "C" })),
      orders(order({ external_id: "D" })),
    );
    const queue = await leased(acct);
    // Two items at most: A (1) and B+C (2) would be 3.
    expect((await start(queue, acct, { limits: { maxRequests: 10, maxItems: 2 } })).map((m) => m.id)).toEqual(
      [ids[0]],
    );
    // The first request goes whatever its size.
    expect(
      (
        await start(queue, acct, { afterSeq: await seqOf(ids[0]), limits: { maxRequests: 10, maxItems: 1 } })
      ).map((m) => m.id),
    ).toEqual([ids[1]]);
    // A request on a later attempt goes alone, and a pipelined stage does not take it at all.
    const acct2 = await account();
    const ids2 = await enqueue(
      acct2,
      orders(order({ external_id: "A" })),
      orders(order({ external_id: "B" })),
    );
    await services.database.rows(
      sql`update requests set status = 'processing', attempts = 1 where id = ${ids2[0]}`,
    );
    const queue2 = await leased(acct2);
    expect(await start(queue2, acct2, { first: false })).toEqual([]);
    expect((await start(queue2, acct2)).map((m) => [m.id, m.attempts])).toEqual([[ids2[0], 2]]);
    // With one attempt allowed, nobody is grouped.
    const acct3 = await account();
    const ids3 = await enqueue(
      acct3,
      orders(order({ external_id: "A" })),
      orders(order({ external_id: "B" })),
    );
    const queue3 = await leased(acct3);
    expect((await start(queue3, acct3, { maxAttempts: 1 })).map((m) => m.id)).toEqual([ids3[0]]);
  });

  it("a worker that lost its lease applies nothing, neither the head nor the requests behind it", async () => {
    const acct = await account();
    const ids = await enqueue(acct, orders(order({ external_id: "A" })), orders(order({ external_id: "B" })));
    const queue = await leased(acct);
    const members = await start(queue, acct);
    // Its lease ran out and another worker took the account.
    await services.database.rows(
      sql`update request_queues set lease_owner = 'w2' where account_id = ${acct}`,
    );
    const outcome = await applyStage(services, queue, acct, { members }, config);
    expect(outcome).toMatchObject({ kind: "lease_lost" });
    expect((await records(ids)).map((r) => [r.status, r.attempts])).toEqual([
      ["processing", 1],
      ["processing", 1],
    ]);
    expect(await storedOrders(acct)).toEqual([]);
    // Nor can it start another stage or hand the account back.
    expect(
      await queue.startStage(acct, 0, { first: true, group: true, maxAttempts: 5, limits: LIMITS }),
    ).toEqual({
      kind: "none",
    });
    await queue.release(acct);
    expect((await queueRow(acct))?.lease_owner).toBe("w2");
  });

  it("a never-attempted head whose next_attempt_at is ahead of the statement's clock starts with the requests behind it, and nothing is left processing outside the stage", async () => {
    // An accept that commits while startStage is being planned stamps next_attempt_at with its own
    // now(), later than startStage's: the head read as not due, and the requests behind it were
    // started without it, left processing in no stage and started again with a second attempt.
    const acct = await account();
    const ids = await enqueue(
      acct,
      orders(order({ external_id: "A" })),
      orders(order({ external_id: "B" })),
      orders(order({ external_id: "C" })),
    );
    await services.database.rows(
      sql`update requests set next_attempt_at = now() + interval '1 hour' where id = ${ids[0]}`,
    );
    const queue = await leased(acct);
    const members = await start(queue, acct);
    expect(members.map((m) => [m.id, m.attempts])).toEqual(ids.map((id) => [id, 1]));
    expect((await applyStage(services, queue, acct, { members }, config)).kind).toBe("applied");
    expect((await records(ids)).map((r) => [r.status, r.attempts])).toEqual([
      ["succeeded", 1],
      ["succeeded", 1],
      ["succeeded", 1],
    ]);
  });

  it("the next stage reads through the changes of the stage before, and writes only after it committed", async () => {
    const acct = await account();
    const ids = await enqueue(
      acct,
      orders(order({ external_id: "A" })),
      shipment("S-A", "A"),
      orders(order({ external_id: "B" })),
    );
    const queue = await leased(acct);
    const members = await start(queue, acct, { limits: { maxRequests: 1, maxItems: 100 } });
    let second: Promise<StageOutcome> | undefined;
    let commitFirst!: (ok: boolean) => void;
    const committed = new Promise<boolean>((r) => {
      commitFirst = r;
    });
    const first = await applyStage(services, queue, acct, { members }, config, {
      onReady: ({ lastSeq, changes }) => {
        second = start(queue, acct, { afterSeq: lastSeq, first: false }).then((next) =>
          applyStage(services, queue, acct, { members: next, previous: { changes, committed } }, config),
        );
      },
    });
    commitFirst(first.kind === "applied");
    const next = await second;
    expect(next?.kind === "applied" && next.members.map((m) => [m.id, m.outcome])).toEqual([
      [ids[1], "succeeded"],
      [ids[2], "succeeded"],
    ]);
    // Orders share the account's feed sequence with events: the first stage's request.succeeded took 2.
    expect(await storedOrders(acct)).toEqual([
      { external_id: "A", feed_seq: 3, shipped: 1 },
      { external_id: "B", feed_seq: 4, shipped: 0 },
    ]);
  });

  it("a stage behind one that did not commit rolls back, and unstarting it gives its attempt back", async () => {
    const acct = await account();
    const ids = await enqueue(acct, orders(order({ external_id: "A" })), orders(order({ external_id: "B" })));
    const queue = await leased(acct);
    const members = await start(queue, acct, { first: false });
    const outcome = await applyStage(
      services,
      queue,
      acct,
      {
        members,
        previous: {
          changes: { orders: [], returns: [], shipments: [], inventory: [] },
          committed: Promise.resolve(false),
        },
      },
      config,
    );
    expect(outcome).toEqual({ kind: "abandoned" });
    await queue.unstart(
      acct,
      members.map((m) => m.id),
    );
    expect((await records(ids)).map((r) => [r.status, r.attempts])).toEqual([
      ["pending", 0],
      ["pending", 0],
    ]);
    expect(await storedOrders(acct)).toEqual([]);
  });

  it("hands an account back due now while it has open requests, at the head's retry time in a backoff, and idle when empty", async () => {
    const acct = await account();
    const ids = await enqueue(acct, orders(order({ external_id: "A" })));
    const queue = await leased(acct);
    await queue.release(acct);
    expect(await queueRow(acct)).toEqual({ open_count: 1, lease_owner: null, due: true });

    await leased(acct, queue.workerId);
    const [member] = await start(queue, acct);
    await queue.settleFailed(acct, [{ id: member?.id as string, dead: false, delayMs: 60_000 }], {
      code: "processing_failed",
      message: "x",
    });
    await queue.release(acct);
    expect(await queueRow(acct)).toEqual({ open_count: 1, lease_owner: null, due: false });

    await leased(acct, queue.workerId);
    await queue.settleFailed(acct, [{ id: ids[0] as string, dead: true, delayMs: 0 }], {
      code: "processing_failed",
      message: "x",
    });
    await queue.release(acct);
    expect(await queueRow(acct)).toEqual({ open_count: 0, lease_owner: null, due: null });
    expect((await records(ids)).map((r) => r.status)).toEqual(["dead"]);
  });
});

async function seqOf(id: string | undefined): Promise<number> {
  const [row] = await services.database.rows<{ seq: string }>(sql`select seq from requests where id = ${id}`);
  return Number(row?.seq);
}

async function runWorker(ids: string[], stageLimits?: StageLimits) {
  const worker = await startWorker({
    config: loadConfig({ OISR_MAX_ATTEMPTS: "3", OISR_RETRY_BASE_MS: "10", OISR_DATA_DIR: "memory://" }),
    logger: pino({ level: "silent" }),
    services,
    stageLimits,
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

describe.skipIf(!process.env.DATABASE_URL)(
  "apply stages on PostgreSQL (PGlite has one connection: nothing else can hold a lock)",
  () => {
    // The lock timeout travels with the lock statement (one round trip): it must still be in force
    // for that statement, or a stage behind a stuck lock would wait forever instead of retrying.
    it("waits for a request another transaction holds no longer than the lock timeout, then rolls back as lock_not_available", async () => {
      const acct = await account();
      const [id] = await enqueue(acct, orders(order({ external_id: "LOCKED" })));
      const queue = await leased(acct);
      const members = await start(queue, acct);
      let release!: () => void;
      const released = new Promise<void>((resolve) => {
        release = resolve;
      });
      let locked!: () => void;
      const lockTaken = new Promise<void>((resolve) => {
        locked = resolve;
      });
      const holder = services.database.db.transaction(async (tx) => {
        await services.database.rows(sql`select id from requests where account_id = ${acct} for update`, tx);
        locked();
        await released;
      });
      await lockTaken;
      const startedAt = performance.now();
      const failure = await applyStage(services, queue, acct, { members }, { applyLockTimeoutMs: 300 }).then(
        () => null,
        (err: unknown) => err,
      );
      const waited = performance.now() - startedAt;
      release();
      await holder;
      expect(describeRollback(failure).reason).toBe("lock_not_available");
      expect(waited).toBeGreaterThanOrEqual(250);
      // The holder never lets go before the stage gives up: only the timeout can have ended the wait.
      expect(waited).toBeLessThan(10_000);
      expect((await records([id as string]))[0]?.status).toBe("processing");
    });
  },
);

describe("worker: transient failures", () => {
  it("in a group: each request in it used an attempt; each then retries alone, so only the poisoned one dies", async () => {
    const acct = await account();
    const ids = await enqueue(
      acct,
      orders(order({ external_id: "A" })),
      orders(order({ external_id: POISON_ORDER_ID })),
      orders(order({ external_id: "C" })),
    );
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
    const ids = await enqueue(
      acct,
      orders(order({ external_id: "A" })),
      orders(order({ external_id: POISON_ORDER_ID })),
      orders(order({ external_id: "C" })),
    );
    await runWorker(ids, { maxRequests: 1, maxItems: 1000 });
    expect((await records(ids)).map((r) => [r.status, r.attempts])).toEqual([
      ["succeeded", 1],
      ["dead", 3],
      ["succeeded", 1],
    ]);
    expect((await storedOrders(acct)).map((o) => o.external_id)).toEqual(["A", "C"]);
  });
});

describe("worker: a worker that dies holding a request", () => {
  it("has used that attempt: after the last one the request is dead, never applied again, and the next one goes on", async () => {
    const acct = await account();
    const ids = await enqueue(acct, orders(order({ external_id: "P" })), orders(order({ external_id: "Q" })));
    // Three workers (OISR_MAX_ATTEMPTS=3) each start P and die before applying it; the first had Q with it.
    for (let i = 0; i < 3; i++) await start(await leased(acct), acct);
    expect((await records(ids)).map((r) => [r.status, r.attempts])).toEqual([
      ["processing", 3],
      ["processing", 1],
    ]);
    // The last one's lease runs out.
    await services.database.rows(
      sql`update request_queues set lease_until = now() - interval '1 second', due_at = now() - interval '1 second'
           where account_id = ${acct}`,
    );
    await runWorker(ids);
    const recs = await services.database.rows<{
      status: string;
      attempts: number;
      error: { code: string; message: string } | null;
    }>(sql`select status, attempts, error from requests where account_id = ${acct} order by seq`);
    expect(recs.map((r) => [r.status, r.attempts])).toEqual([
      ["dead", 3],
      ["succeeded", 2],
    ]);
    expect(recs[0]?.error?.code).toBe("processing_failed");
    expect(recs[0]?.error?.message).toMatch(/stopped during its last attempt/);
    expect((await storedOrders(acct)).map((o) => o.external_id)).toEqual(["Q"]);
    expect(await queueRow(acct)).toEqual({ open_count: 0, lease_owner: null, due: null });
  });
});
