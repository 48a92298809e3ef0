// The queue's gauges (what /metrics shows as oisr_queue_*) with a backlog and without one.
import { expect, it } from "vitest";
import { sql } from "../db/client.ts";
import type { Services } from "../services.ts";
import { queueEmptyRequests, useFreshServices } from "../test-services.ts";
import { createWorkerQueue } from "./index.ts";

let services: Services;
useFreshServices((s) => {
  services = s;
});

const queue = (accountId: string, n: number) => queueEmptyRequests(services, accountId, n);

it("counts queued and processing requests, backlogged accounts and the age of the oldest head, from the queue rows", async () => {
  expect(await services.requests.stats()).toEqual({
    queued: 0,
    processing: 0,
    backlogged: 0,
    oldestAgeSeconds: 0,
  });
  // Real accounts: a request that dies writes its request.dead event into the account's feed.
  const [a, b] = [
    (await services.accounts.createAccount("a")).account_id,
    (await services.accounts.createAccount("b")).account_id,
  ];
  await queue(a, 3);
  await queue(b, 2);
  await services.database.rows(
    sql`update requests set accepted_at = now() - interval '90 seconds' where account_id = ${a}`,
  );
  const stats = await services.requests.stats();
  expect(stats).toMatchObject({ queued: 5, processing: 0, backlogged: 2 });
  expect(stats.oldestAgeSeconds).toBeGreaterThanOrEqual(90);
  expect(stats.oldestAgeSeconds).toBeLessThan(120);

  // a's requests finish (buried here, the shortest way to finish them).
  const worker = createWorkerQueue(services.database, "w1", 30_000);
  expect((await worker.claim(10)).map((c) => c.accountId)).toEqual(expect.arrayContaining([a]));
  const ids = await services.database.rows<{ id: string }>(
    sql`select id from requests where account_id = ${a}`,
  );
  // A stage started the first two (processing is always a prefix of the account's open requests).
  await services.database.rows(
    sql`update requests set status = 'processing'
         where id in (select id from requests where account_id = ${a} order by seq limit 2)`,
  );
  expect(await services.requests.stats()).toMatchObject({ queued: 5, processing: 2, backlogged: 2 });
  await services.database.rows(sql`update requests set status = 'processing' where account_id = ${a}`);
  expect(await services.requests.stats()).toMatchObject({ queued: 5, processing: 3, backlogged: 2 });
  await worker.settleFailed(
    a,
    ids.map((r) => ({ id: r.id, dead: true, delayMs: 0 })),
    { code: "processing_failed", message: "x" },
  );
  const after = await services.requests.stats();
  expect(after).toMatchObject({ queued: 2, processing: 0, backlogged: 1 });
  expect(after.oldestAgeSeconds).toBeLessThan(60);
});
