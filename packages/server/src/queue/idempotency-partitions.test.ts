// Idempotency keys in a table partitioned by day (decision 020): a key stays unique among its live
// records across a partition boundary and under concurrent calls, with no unique index to say so
// (oisr_claim_idempotency_keys locks the key instead). PGlite, or PostgreSQL with DATABASE_URL.
import { randomUUID } from "node:crypto";
import { expect, it } from "vitest";
import { sql } from "../db/client.ts";
import type { Services } from "../services.ts";
import { ingestCall, useFreshServices } from "../test-services.ts";
import { type AcceptOutcome, acceptBatch, type NewRequest } from "./accept.ts";

let services: Services;
let accountId: string;
useFreshServices(async (s) => {
  services = s;
  accountId = (await s.accounts.createAccount("idempotency")).account_id;
});

const call = (key: string, body: unknown = { orders: [{ external_id: "A" }] }): NewRequest =>
  ingestCall(accountId, { kind: "orders", body }, key);

const records = (key: string) =>
  services.database.rows<{ partition: string; request_id: string }>(
    sql`select tableoid::regclass::text as partition, request_id from idempotency_keys
         where account_id = ${accountId} and key = ${key} order by created_at`,
  );

const requestsOf = async (ids: string[]) =>
  Number(
    (
      await services.database.rows<{ n: string }>(
        sql`select count(*) as n from requests where account_id = ${accountId}
             and id = any(${`{${ids.join(",")}}`}::uuid[])`,
      )
    )[0]?.n,
  );

const ackOf = (outcome: AcceptOutcome) => {
  if (outcome.kind !== "accepted" && outcome.kind !== "replayed") throw new Error(`got ${outcome.kind}`);
  return outcome.ack;
};

it("replays a key stored in yesterday's partition, and refuses it with another body", async () => {
  const first = ackOf(await services.requests.accept(call("across")));
  // The record moves to the last millisecond of yesterday (UTC): another partition, still inside
  // the 24 h window whatever the time of day.
  await services.database.rows(
    sql`update idempotency_keys set created_at = date_trunc('day', now(), 'UTC') - interval '1 millisecond'
         where account_id = ${accountId} and key = 'across'`,
  );
  const [moved] = await records("across");
  const [today] = await services.database.rows<{ p: string }>(
    sql`select name as p from oisr_partitions where parent = 'idempotency_keys' and from_at <= now() and to_at > now()`,
  );
  expect(moved?.partition).not.toBe(today?.p);

  const replay = await services.requests.accept(call("across"));
  expect(replay).toMatchObject({ kind: "replayed", ack: { request_id: first.request_id } });
  expect((await services.requests.accept(call("across", { orders: [{ external_id: "B" }] }))).kind).toBe(
    "key_reused",
  );
  expect(await records("across")).toHaveLength(1);
});

it("accepts a key again once its record is past the 24 h window, as a new request", async () => {
  const first = ackOf(await services.requests.accept(call("expired")));
  await services.database.rows(
    sql`update idempotency_keys set created_at = now() - interval '25 hours'
         where account_id = ${accountId} and key = 'expired'`,
  );
  const again = await services.requests.accept(call("expired", { orders: [{ external_id: "C" }] }));
  expect(again.kind).toBe("accepted");
  expect(ackOf(again).request_id).not.toBe(first.request_id);
  // The expired record waits for its partition to be dropped; the live one answers.
  expect((await records("expired")).map((r) => r.request_id)).toEqual([
    first.request_id,
    ackOf(again).request_id,
  ]);
  expect(await services.requests.accept(call("expired", { orders: [{ external_id: "C" }] }))).toMatchObject({
    kind: "replayed",
    ack: { request_id: ackOf(again).request_id },
  });
});

it("stores one request for concurrent calls with one key, each in its own statement", async () => {
  // acceptBatch directly, not through the batcher: each call is its own statement, on its own
  // connection with PostgreSQL, so the calls race for the key.
  const outcomes = await Promise.all(
    Array.from({ length: 12 }, () => acceptBatch(services.database, [call("race")]).then((o) => o[0])),
  );
  const kinds = outcomes.map((o) => o?.kind);
  expect(kinds.filter((k) => k === "accepted")).toHaveLength(1);
  expect(kinds.filter((k) => k === "replayed")).toHaveLength(11);
  const ids = new Set(outcomes.map((o) => ackOf(o as AcceptOutcome).request_id));
  expect(ids.size).toBe(1);
  expect(await records("race")).toHaveLength(1);
  expect(await requestsOf([...ids])).toBe(1);
});

it("makes a call wait for a concurrent claim of its key, then replays it", async () => {
  // A transaction claims the key and stays open; a call with the key meanwhile must not see
  // "no live record" and store a second request: it waits on the key's lock, then replays.
  const held = call("held");
  const ack = { message: "accepted", request_id: randomUUID(), trace_id: held.traceId };
  let release = () => {};
  const gate = new Promise<void>((resolve) => {
    release = resolve;
  });
  let claimed = () => {};
  const claimedNow = new Promise<void>((resolve) => {
    claimed = resolve;
  });
  const holder = services.database.db.transaction(async (tx) => {
    const row = { a: accountId, e: held.endpoint, ik: "held", h: held.bodyHash, i: ack.request_id, x: ack };
    await services.database.rows(
      sql`select * from oisr_claim_idempotency_keys(${JSON.stringify([row])}::jsonb, interval '1 day')`,
      tx,
    );
    claimed();
    await gate;
  });
  await claimedNow;
  const racing = acceptBatch(services.database, [held]);
  await new Promise((resolve) => setTimeout(resolve, 300));
  release();
  await holder;
  const [outcome] = await racing;
  expect(outcome).toMatchObject({ kind: "replayed", ack: { request_id: ack.request_id } });
  expect(await records("held")).toHaveLength(1);
});

it("stores the first of two calls with one key in one batch, and the second follows it", async () => {
  const [a, b] = await acceptBatch(services.database, [call("batch"), call("batch")]);
  expect(a?.kind).toBe("accepted");
  expect(b).toMatchObject({ kind: "replayed", ack: { request_id: ackOf(a as AcceptOutcome).request_id } });
  expect(await records("batch")).toHaveLength(1);
});
