// Which accounts a worker claims first: short queues before long ones, then the longest waiting.
// PGlite, or PostgreSQL when DATABASE_URL is set.
import { expect, it } from "vitest";
import { sql } from "../db/client.ts";
import type { Services } from "../services.ts";
import { queueEmptyRequests, useFreshServices } from "../test-services.ts";
import { createWorkerQueue } from "./index.ts";
import { SHORT_QUEUE } from "./leases.ts";

let services: Services;
useFreshServices((s) => {
  services = s;
});

const queue = (accountId: string, n: number) => queueEmptyRequests(services, accountId, n);
const ids = (claimed: { accountId: string }[]) => claimed.map((c) => c.accountId);

/** Makes the accounts due in the order given, a second apart (a claim takes the longest waiting first). */
async function dueInOrder(...accounts: string[]) {
  for (const [i, account] of accounts.entries())
    await services.database.rows(
      sql`update request_queues set due_at = now() - make_interval(secs => ${accounts.length - i})
           where account_id = ${account}`,
    );
}

it("claims an account with a short queue before long queues that were due earlier, then the long ones oldest first", async () => {
  const [long1, long2, short, long3] = [
    (await services.accounts.createAccount("long-1")).account_id,
    (await services.accounts.createAccount("long-2")).account_id,
    (await services.accounts.createAccount("short")).account_id,
    (await services.accounts.createAccount("long-3")).account_id,
  ];
  for (const account of [long1, long2, long3]) await queue(account, SHORT_QUEUE + 1);
  await queue(short, SHORT_QUEUE);
  await dueInOrder(long1, long2, short, long3);

  const worker = createWorkerQueue(services.database, "w1", 30_000);
  expect(await worker.claim(1)).toEqual([{ accountId: short, long: false }]);
  expect(await worker.claim(1)).toEqual([{ accountId: long1, long: true }]);
  // Leased accounts are not due: the next claim takes the others, oldest first.
  expect(ids(await worker.claim(5)).sort()).toEqual([long2, long3].sort());
  expect(await worker.claim(5)).toEqual([]);

  // Handed back with work left, each is due again now: the short one still goes first.
  await worker.release(long1);
  await worker.release(short);
  expect(ids(await worker.claim(1))).toEqual([short]);
});

it("leases at most longLimit long accounts, and short ones up to the limit", async () => {
  const [long1, long2, short1, short2] = [
    (await services.accounts.createAccount("long-1")).account_id,
    (await services.accounts.createAccount("long-2")).account_id,
    (await services.accounts.createAccount("short-1")).account_id,
    (await services.accounts.createAccount("short-2")).account_id,
  ];
  for (const account of [long1, long2]) await queue(account, SHORT_QUEUE + 1);
  await queue(short1, 1);
  await dueInOrder(long1, long2, short1);

  const worker = createWorkerQueue(services.database, "w1", 30_000);
  // The slot kept for short work stays free while only long accounts are due.
  const first = await worker.claim(2, 1);
  expect(first).toHaveLength(2);
  expect(first).toEqual(
    expect.arrayContaining([
      { accountId: short1, long: false },
      { accountId: long1, long: true },
    ]),
  );
  expect(await worker.claim(2, 0)).toEqual([]);
  await queue(short2, 1);
  expect(await worker.claim(2, 0)).toEqual([{ accountId: short2, long: false }]);
  expect(await worker.claim(2, 1)).toEqual([{ accountId: long2, long: true }]);
});
