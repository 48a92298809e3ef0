// Request completion events (issue 17 item 3) on a real database, PGlite or PostgreSQL when
// DATABASE_URL is set: one `request.<status>` event per request, written in the transaction that
// sets its final status, none for an attempt that rolled back; the body the record GET
// /requests/{id} answers, bounded; fanned out only when a subscription wants it.
import { randomUUID } from "node:crypto";
import {
  type FinalRequestRecord,
  isFinalRecord,
  type RequestEventObject,
  requestEventObject,
} from "@oisr/contract";
import { order } from "@oisr/contract/fixtures";
import pino from "pino";
import { describe, expect, it } from "vitest";
import { loadConfig } from "../src/config.ts";
import { EVENTS_CHANNEL } from "../src/db/channels.ts";
import { sql } from "../src/db/client.ts";
import { createWorkerQueue, requestRecordOfRow, type StageLimits } from "../src/queue/index.ts";
import type { Services } from "../src/services.ts";
import {
  badOrder,
  enqueueRequests,
  installPoisonPill,
  POISON_ORDER_ID,
  type TestRequest,
  useFreshServices,
} from "../src/test-services.ts";
import { applyStage } from "../src/worker/apply.ts";
import { startWorker } from "../src/worker/worker.ts";

let services: Services;

useFreshServices(async (s) => {
  services = s;
  await installPoisonPill(services);
});

const MAX_ATTEMPTS = 3;

const orders = (...list: unknown[]) => ({ kind: "orders", body: { orders: list } });

async function account(): Promise<string> {
  return (await services.accounts.createAccount("request-events-test")).account_id;
}

const enqueue = (accountId: string, ...requests: TestRequest[]) =>
  enqueueRequests(services, accountId, ...requests);

/** GET /requests/{id}'s record of each request, which must be final. */
async function records(accountId: string, ids: string[]): Promise<FinalRequestRecord[]> {
  return Promise.all(
    ids.map(async (id) => {
      const row = await services.requests.get(accountId, id);
      const record = row && requestRecordOfRow(row);
      if (!record || !isFinalRecord(record)) throw new Error(`request ${id} is not final`);
      return record;
    }),
  );
}

interface RequestEventRow {
  id: string;
  type: string;
  created_at: string;
  data: { object: RequestEventObject };
}

/** The account's request events as GET /events lists them, in feed order. */
async function requestEvents(accountId: string): Promise<RequestEventRow[]> {
  const rows = await services.events.feed(accountId, {}, 0, 1000);
  return rows.map((r) => r.body as unknown as RequestEventRow).filter((e) => e.type.startsWith("request."));
}

async function runWorker(accountId: string, ids: string[], stageLimits?: StageLimits): Promise<void> {
  const worker = await startWorker({
    config: loadConfig({
      OISR_MAX_ATTEMPTS: String(MAX_ATTEMPTS),
      OISR_RETRY_BASE_MS: "10",
      OISR_DATA_DIR: "memory://",
    }),
    logger: pino({ level: "silent" }),
    services,
    stageLimits,
  });
  try {
    const deadline = Date.now() + 20_000;
    for (;;) {
      const done = await Promise.all(ids.map((id) => services.requests.get(accountId, id)));
      if (done.every((r) => r && ["succeeded", "failed", "dead"].includes(r.status))) break;
      if (Date.now() > deadline) throw new Error("requests not final in time");
      await new Promise((r) => setTimeout(r, 50));
    }
  } finally {
    await worker.stop();
  }
}

describe("request events", () => {
  it("each request gets exactly one event at its final status, in queue order, carrying its record", async () => {
    const acct = await account();
    const ids = await enqueue(
      acct,
      orders(order()),
      orders(badOrder()),
      orders(order(), order()),
      // A stage of three at most: on PostgreSQL the stages pipeline, each writing its own events.
      ...Array.from({ length: 12 }, () => orders(order())),
    );
    await runWorker(acct, ids, { maxRequests: 3, maxItems: 100 });
    const events = await requestEvents(acct);
    expect(events.map((e) => e.data.object.request_id)).toEqual(ids);
    expect(new Set(events.map((e) => e.id)).size).toBe(ids.length);
    const recs = await records(acct, ids);
    expect(events.map((e) => e.type)).toEqual(recs.map((r) => `request.${r.status}`));
    expect(events[1]?.type).toBe("request.failed");
    events.forEach((e, i) => {
      const record = recs[i] as FinalRequestRecord;
      // The record GET /requests/{id} answers, bounded (nothing to bound here), and created when it completed.
      expect(e.data.object).toEqual(requestEventObject(record));
      expect(e.created_at).toBe(record.completed_at);
      expect(e.data.object.url).toBe(`/v2/requests/${record.request_id}`);
    });
    const failed = events[1]?.data.object;
    expect(failed?.errors.map((x) => x.code)).toEqual(["duplicate_line_id"]);
    expect(failed?.errors_total).toBe(1);
    expect(events[2]?.data.object.result?.items).toHaveLength(2);
  });

  it("an attempt that rolled back writes nothing; the request's final status writes one event, request.dead after its last attempt", async () => {
    const acct = await account();
    const ids = await enqueue(
      acct,
      orders(order({ external_id: "A" })),
      orders(order({ external_id: POISON_ORDER_ID })),
      orders(order({ external_id: "C" })),
    );
    // The first attempt, by hand: the group's apply transaction fails and rolls back.
    const workerId = `w-${randomUUID()}`;
    const queue = createWorkerQueue(services.database, workerId, 30_000);
    await services.database.rows(
      sql`update request_queues set lease_owner = ${workerId}, lease_until = now() + interval '30 seconds'
           where account_id = ${acct}`,
    );
    const start = await queue.startStage(acct, 0, {
      first: true,
      group: true,
      maxAttempts: MAX_ATTEMPTS,
      limits: { maxRequests: 10, maxItems: 100 },
    });
    if (start.kind !== "started") throw new Error(`stage did not start: ${start.kind}`);
    expect(start.members.map((m) => m.id)).toEqual(ids);
    await expect(
      applyStage(services, queue, acct, { members: start.members }, { applyLockTimeoutMs: 10_000 }),
    ).rejects.toThrow();
    await queue.settleFailed(
      acct,
      ids.map((id) => ({ id, dead: false, delayMs: 0 })),
      { code: "processing_failed", message: "retrying" },
    );
    await queue.release(acct);
    expect(await requestEvents(acct)).toEqual([]);

    // The worker retries each alone: A and C succeed, BOOM dies after its last attempt.
    await runWorker(acct, ids);
    const events = await requestEvents(acct);
    expect(events.map((e) => [e.data.object.request_id, e.type])).toEqual([
      [ids[0], "request.succeeded"],
      [ids[1], "request.dead"],
      [ids[2], "request.succeeded"],
    ]);
    const dead = events[1]?.data.object;
    expect(dead).toMatchObject({
      status: "dead",
      attempts: MAX_ATTEMPTS,
      result: null,
      errors: [],
      errors_total: 0,
      error: { code: "processing_failed" },
    });
    const recs = await records(acct, ids);
    expect(events.map((e) => e.data.object)).toEqual(recs.map((r) => requestEventObject(r)));
  });

  it("a batch of more than 100 items leaves result.items out and links the record", async () => {
    const acct = await account();
    const [big, small] = await enqueue(
      acct,
      orders(...Array.from({ length: 101 }, () => order())),
      orders(...Array.from({ length: 100 }, () => order())),
    );
    await runWorker(acct, [big as string, small as string]);
    const [bigEvent, smallEvent] = await requestEvents(acct);
    expect(bigEvent?.data.object.result).toEqual({ created: 101, updated: 0, unchanged: 0, stale: 0 });
    expect(bigEvent?.data.object.url).toBe(`/v2/requests/${big}`);
    expect(smallEvent?.data.object.result?.items).toHaveLength(100);
    // GET /requests/{id} still lists every item.
    const [record] = await records(acct, [big as string]);
    expect(record?.result?.items).toHaveLength(101);
  });

  it("waits for fan-out only where a subscription lists the type, and then wakes the dispatcher at commit", async () => {
    const acct = await account();
    const other = await account();
    await services.webhookSubscriptions.create(acct, {
      url: "https://example.com/hooks",
      events: ["request.failed", "return.created"],
    });
    const woken: string[] = [];
    const unlisten = await services.database.listen(EVENTS_CHANNEL, (payload) => woken.push(payload));
    try {
      const ids = await enqueue(acct, orders(order()), orders(badOrder()));
      const otherIds = await enqueue(other, orders(badOrder()));
      await runWorker(acct, ids);
      await runWorker(other, otherIds);
      const rows = await services.database.rows<{ account_id: string; type: string; pending: boolean }>(
        sql`select account_id, type, dispatched_at is null as pending from events
             where account_id in (${acct}, ${other}) and type like 'request.%'
             order by account_id = ${acct} desc, feed_seq`,
      );
      expect(rows).toEqual([
        { account_id: acct, type: "request.succeeded", pending: false },
        { account_id: acct, type: "request.failed", pending: true },
        { account_id: other, type: "request.failed", pending: false },
      ]);
      expect(woken).toContain(acct);
      expect(woken).not.toContain(other);
    } finally {
      await unlisten();
    }
  });
});
