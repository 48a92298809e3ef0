// docs/product.md §4 and docs/decisions/014: sending failed and dead requests again, one
// (POST /requests/{request_id}/retry) or in bulk (POST /requests/retry). A retry is a new request
// with the original's kind, path and body, answered like an ingest call, linked both ways; the
// original keeps its status.
import { describe, expect, it } from "vitest";
import { clientWith, expectForbidden, makeKey, rateLimit } from "../src/api-keys.ts";
import type { ApiResponse, Json } from "../src/client.ts";
import { order, returnOf, shipment, uid } from "../src/fixtures.ts";
import { type Client, expectProblem, failedWith, succeeded, useSystem } from "../src/harness.ts";
import type { System } from "../src/targets.ts";
import { targets } from "../src/targets.ts";
import { whileTableLocked } from "./table-lock.ts";

const LONG_AGO = "2020-01-01T00:00:00Z";
const UNKNOWN = "0195c0ba-79b7-7a23-a88a-a13755ffd8cf";

const retry = (c: Client, id: string, headers?: Record<string, string>) =>
  c.request("POST", `/requests/${id}/retry`, { headers });
const retryMany = (c: Client, body: Json, headers?: Record<string, string>) =>
  c.post("/requests/retry", body, headers);

/** A shipment for an order the account does not hold: processed, and failed (order_not_found). */
async function failedShipment(c: Client): Promise<{ id: string; orderRef: string; record: Json }> {
  const orderRef = uid("ORD");
  const ack = await c.ingest("/ingest/shipments", { shipments: [shipment(orderRef)] });
  const record = await c.wait(ack.body.request_id);
  expect(failedWith(record)).toEqual([["/shipments/0/order_id", "order_not_found"]]);
  return { id: ack.body.request_id, orderRef, record };
}

/**
 * A 202 answered exactly as an ingest call's: new id, Location, Retry-After, the trace id (of this
 * call; a replay repeats the first call's body, its trace id included).
 */
function expectAccepted(res: ApiResponse): string {
  expect(res.status, res.text).toBe(202);
  const id = res.body.request_id;
  expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[0-9a-f]{4}-[0-9a-f]{12}$/);
  if (res.headers.get("idempotent-replayed") === null) {
    expect(res.body.trace_id).toBe(res.headers.get("x-trace-id"));
  }
  expect(typeof res.body.message).toBe("string");
  expect(res.headers.get("location")).toBe(`/v2/requests/${id}`);
  expect(res.headers.get("retry-after")).toBe("1");
  return id;
}

async function record(c: Client, id: string): Promise<Json> {
  const res = await c.get(`/requests/${id}`);
  expect(res.status, res.text).toBe(200);
  return res.body;
}

/**
 * Makes a dead request where the target lets a test provoke one: on PostgreSQL by holding a lock
 * every attempt times out on (table-lock.ts), on the standalone mock through
 * its control API. Undefined elsewhere.
 */
async function deadOrder(system: System, c: Client): Promise<{ id: string; body: Json } | undefined> {
  const body = { orders: [order()] };
  if (system.databaseUrl) {
    return whileTableLocked(system.databaseUrl, "orders", async () => {
      const ack = await c.ingest("/ingest/orders", body);
      const dead = await c.wait(ack.body.request_id, { timeoutMs: 20_000, intervalMs: 5 });
      expect(dead.status).toBe("dead");
      return { id: ack.body.request_id, body };
    });
  }
  const control = await fetch(`${system.origin}/__mock/fail-next`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ outcome: "dead", token: c.token }),
  }).catch(() => undefined);
  // The in-process mock has no control API over HTTP, the server on PGlite no outside connection.
  if (control?.status !== 204) return undefined;
  const ack = await c.ingest("/ingest/orders", body);
  expect((await c.wait(ack.body.request_id)).status).toBe("dead");
  return { id: ack.body.request_id, body };
}

describe.each(targets)("request retry — $name", (target) => {
  const h = useSystem(target, {
    OISR_MAX_ATTEMPTS: "2",
    OISR_RETRY_BASE_MS: "20",
    OISR_APPLY_LOCK_TIMEOUT_MS: "100",
  });

  it("a failed request is sent again as a new request, linked both ways, the original unchanged; it succeeds once its order exists", async () => {
    const c = await h.account();
    const failed = await failedShipment(c);
    await c.ingestAndWait("/ingest/orders", { orders: [order({ external_id: failed.orderRef })] });

    const res = await retry(c, failed.id);
    const id = expectAccepted(res);
    expect(id).not.toBe(failed.id);
    const done = await c.wait(id);
    succeeded(done);
    expect(done).toMatchObject({
      kind: "shipments",
      item_count: failed.record.item_count,
      retry_of: failed.id,
      retried_by: null,
      trace_id: res.body.trace_id,
    });
    expect(done.result.items).toEqual([
      expect.objectContaining({ index: 0, type: "shipment", outcome: "created" }),
    ]);

    const original = await record(c, failed.id);
    expect(original).toEqual({ ...failed.record, retried_by: id });
    expect(original.retry_of).toBeNull();
    // The order shows the one shipment: the body sent again is the original's.
    const o = await c.get(`/orders/${failed.orderRef}`);
    expect(o.body.shipments).toHaveLength(1);
  });

  it("a dispositions batch is sent again to the same return (its path parameter kept)", async () => {
    const c = await h.account();
    const o = order();
    const rma = returnOf(o.external_id);
    const line = rma.items[0]?.line_id as string;
    const path = `/ingest/returns/${rma.external_id}/dispositions`;
    const first = await c.ingest(path, {
      dispositions: [{ line_id: line, quantity: 1, outcome: "restock", decided_at: "2026-01-01T00:00:00Z" }],
    });
    expect((await c.wait(first.body.request_id)).status).toBe("failed");
    await c.ingestAndWait("/ingest/orders", { orders: [o] });
    await c.ingestAndWait("/ingest/returns", { returns: [rma] });

    const again = await c.wait(expectAccepted(await retry(c, first.body.request_id)));
    expect(again).toMatchObject({
      kind: "dispositions",
      status: "succeeded",
      retry_of: first.body.request_id,
    });
    const ret = await c.get(`/returns/${rma.external_id}`);
    expect(ret.body.dispositions).toHaveLength(1);
  });

  it("a dead request is sent again and succeeds; the original stays dead (on PostgreSQL and the standalone mock only: the others cannot be made to kill a request from outside)", async (ctx) => {
    const c = await h.account();
    const dead = await deadOrder(h.system, c);
    if (!dead) {
      ctx.skip();
      return;
    }
    const id = expectAccepted(await retry(c, dead.id));
    const done = await c.wait(id);
    expect(done).toMatchObject({ status: "succeeded", kind: "orders", retry_of: dead.id });
    expect(await record(c, dead.id)).toMatchObject({ status: "dead", retried_by: id });
    const o = await c.get(`/orders/${dead.body.orders[0].external_id}`);
    expect(o.status, o.text).toBe(200);
  });

  it("a pending, processing or succeeded request is 409 request_not_retryable, naming its status; nothing is stored", async () => {
    const c = await h.account();
    const ack = await c.ingest("/ingest/orders", { orders: [order()] });
    const early = await retry(c, ack.body.request_id);
    const problem = expectProblem(early, 409, "request_not_retryable");
    expect(problem.detail).toMatch(/is (pending|processing|succeeded);/);
    succeeded(await c.wait(ack.body.request_id));
    const late = expectProblem(await retry(c, ack.body.request_id), 409, "request_not_retryable");
    expect(late.detail).toContain("is succeeded;");
    expect((await c.get("/requests")).body.data).toHaveLength(1);
    expect((await record(c, ack.body.request_id)).retried_by).toBeNull();
  });

  it("another account's request, an unknown id and a malformed id are not found or refused, as GET is", async () => {
    const owner = await h.account();
    const other = await h.account();
    const failed = await failedShipment(owner);
    expectProblem(await retry(other, failed.id), 404, "not_found");
    expectProblem(await retry(owner, UNKNOWN), 404, "not_found");
    expectProblem(await retry(owner, "not-a-uuid"), 400, "validation_failed");
    expect((await other.get("/requests")).body.data).toEqual([]);
    expect((await record(owner, failed.id)).retried_by).toBeNull();
  });

  it("Idempotency-Key: the same key for the same request replays the first 202; the request's newest retry is what retried_by names", async () => {
    const c = await h.account();
    const failed = await failedShipment(c);
    const first = await retry(c, failed.id, { "idempotency-key": "retry-1" });
    const id = expectAccepted(first);
    expect(first.headers.get("idempotent-replayed")).toBeNull();
    const replay = await retry(c, failed.id, { "idempotency-key": "retry-1" });
    expect(expectAccepted(replay)).toBe(id);
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    expect(replay.body).toEqual(first.body);
    expect((await record(c, id)).idempotency_key).toBe("retry-1");

    // Another key is another retry of the same request: the original now names the newer one.
    const second = expectAccepted(await retry(c, failed.id, { "idempotency-key": "retry-2" }));
    expect(second).not.toBe(id);
    expect((await record(c, failed.id)).retried_by).toBe(second);
    expect((await record(c, second)).retry_of).toBe(failed.id);
    // One original and two retries: the replay stored nothing.
    expect((await c.get("/requests")).body.data).toHaveLength(3);
    // The same key on another request's retry is that request's own scope.
    const other = await failedShipment(c);
    const elsewhere = await retry(c, other.id, { "idempotency-key": "retry-1" });
    expect(expectAccepted(elsewhere)).not.toBe(id);
    expect(elsewhere.headers.get("idempotent-replayed")).toBeNull();
  });

  it("needs ingest:write: a key with requests:read only is 403 for both forms, and nothing is stored", async () => {
    const c = await h.account();
    const failed = await failedShipment(c);
    const { key, as } = await makeKey(c, ["requests:read"]);
    expectForbidden(await retry(as, failed.id), "ingest:write", key.id);
    expectForbidden(
      await retryMany(as, { status: "failed", accepted_since: LONG_AGO }),
      "ingest:write",
      key.id,
    );
    expect((await c.get("/requests")).body.data).toHaveLength(1);
    // A key with ingest:write may, though it cannot read the records back.
    const writer = await makeKey(c, ["ingest:write"]);
    expectAccepted(await retry(clientWith(c, writer.key.secret), failed.id));
  });

  it("bulk: sends the oldest matching requests again up to limit, skips those already retried, says whether more match", async () => {
    const c = await h.account();
    const failed = [await failedShipment(c), await failedShipment(c), await failedShipment(c)];
    const body = { status: "failed", accepted_since: LONG_AGO, limit: 2 };
    const first = await retryMany(c, body);
    expect(first.status, first.text).toBe(202);
    expect(first.body).toEqual({
      count: 2,
      retries: [
        { request_id: expect.any(String), retry_of: failed[0]?.id },
        { request_id: expect.any(String), retry_of: failed[1]?.id },
      ],
      has_more: true,
    });
    for (const r of first.body.retries) {
      expect(await record(c, r.retry_of)).toMatchObject({ status: "failed", retried_by: r.request_id });
      expect(await record(c, r.request_id)).toMatchObject({ kind: "shipments", retry_of: r.retry_of });
    }
    // The first retries may have failed again already: the window ends before they were accepted.
    const until = new Date(Date.parse(failed[2]?.record.accepted_at) + 1).toISOString();
    const second = await retryMany(c, { ...body, accepted_until: until });
    expect(second.body).toEqual({
      count: 1,
      retries: [{ request_id: expect.any(String), retry_of: failed[2]?.id }],
      has_more: false,
    });
    // Every retry failed again (their orders still do not exist): those are the next ones selected.
    for (const r of [...first.body.retries, ...second.body.retries]) await c.wait(r.request_id);
    const third = await retryMany(c, { ...body, limit: 100 });
    expect(third.status, third.text).toBe(202);
    expect(third.body.count).toBe(3);
    expect(third.body.retries.map((r: Json) => r.retry_of)).toEqual(
      [...first.body.retries, ...second.body.retries].map((r: Json) => r.request_id),
    );
  });

  it("bulk: selects by status, kind and window; an empty selection is 202 with nothing", async () => {
    const c = await h.account();
    const failed = await failedShipment(c);
    const accepted = Date.parse(failed.record.accepted_at);
    const none = (body: Json) =>
      retryMany(c, body).then((res) => {
        expect(res.status, res.text).toBe(202);
        expect(res.body).toEqual({ count: 0, retries: [], has_more: false });
      });
    await none({ status: "dead", accepted_since: LONG_AGO });
    await none({ status: "failed", accepted_since: LONG_AGO, kind: "orders" });
    await none({ status: "failed", accepted_since: new Date(accepted + 1000).toISOString() });
    await none({
      status: "failed",
      accepted_since: LONG_AGO,
      accepted_until: new Date(accepted - 1000).toISOString(),
    });
    const hit = await retryMany(c, {
      status: "failed",
      kind: "shipments",
      accepted_since: new Date(accepted - 1000).toISOString(),
      accepted_until: new Date(accepted + 1000).toISOString(),
    });
    expect(hit.body.retries).toEqual([{ request_id: expect.any(String), retry_of: failed.id }]);
  });

  it.each([
    ["limit above 100", { status: "failed", accepted_since: LONG_AGO, limit: 101 }, "/limit"],
    ["limit 0", { status: "failed", accepted_since: LONG_AGO, limit: 0 }, "/limit"],
    ["a status that cannot be retried", { status: "succeeded", accepted_since: LONG_AGO }, "/status"],
    ["no window", { status: "dead" }, "/accepted_since"],
    [
      "a date that does not exist",
      { status: "dead", accepted_since: "2026-02-30T00:00:00Z" },
      "/accepted_since",
    ],
    ["an unknown member", { status: "dead", accepted_since: LONG_AGO, ids: [UNKNOWN] }, "/ids"],
  ])("bulk: %s is 400 validation_failed", async (_name, body, pointer) => {
    const c = await h.account();
    const problem = expectProblem(await retryMany(c, body), 400, "validation_failed");
    expect(
      problem.errors.map((e: Json) => e.pointer),
      JSON.stringify(problem.errors),
    ).toContain(pointer);
  });

  it("bulk Idempotency-Key: the same key and body replays the first answer; another body is 422", async () => {
    const c = await h.account();
    await failedShipment(c);
    const body = { status: "failed", accepted_since: LONG_AGO };
    const first = await retryMany(c, body, { "idempotency-key": "bulk-1" });
    expect(first.body.count).toBe(1);
    const replay = await retryMany(c, body, { "idempotency-key": "bulk-1" });
    expect(replay.status).toBe(202);
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    expect(replay.body).toEqual(first.body);
    expectProblem(
      await retryMany(c, { ...body, kind: "shipments" }, { "idempotency-key": "bulk-1" }),
      422,
      "idempotency_key_reused",
    );
    // One original, one retry.
    expect((await c.get("/requests")).body.data).toHaveLength(2);
  });
});

describe.each(targets)("request retry rate limits — $name", (target) => {
  const h = useSystem(target, {
    OISR_RATE_LIMITS: JSON.stringify({ ingest: 6, ingest_inventory: 2, requests_read: 100_000 }),
  });

  it("a retry counts as one ingest call, a bulk call as one per request it sends; a call without room is 429 and counts nothing", async () => {
    const c = await h.account();
    const failed = [await failedShipment(c), await failedShipment(c), await failedShipment(c)];
    // Three ingest calls so far.
    const one = await retry(c, failed[0]?.id as string);
    expectAccepted(one);
    expect(rateLimit(one)).toMatchObject({ limit: 6, remaining: 2 });
    // Two left; the bulk call would send three (the retry just made is pending, not failed yet).
    await c.wait(one.body.request_id);
    const refused = await retryMany(c, { status: "failed", accepted_since: LONG_AGO });
    expectProblem(refused, 429, "rate_limited");
    expect(rateLimit(refused)).toMatchObject({ limit: 6, remaining: 0 });
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect((await c.get("/requests")).body.data).toHaveLength(4);
    // Two fit: counted as two.
    const two = await retryMany(c, { status: "failed", accepted_since: LONG_AGO, limit: 2 });
    expect(two.status, two.text).toBe(202);
    expect(two.body.count).toBe(2);
    expect(rateLimit(two)).toMatchObject({ limit: 6, remaining: 0 });
    // The ingest scope is full: a single retry, and an ingest call, are refused alike.
    expectProblem(await retry(c, failed[2]?.id as string), 429, "rate_limited");
    expectProblem(await c.post("/ingest/orders", { orders: [order()] }), 429, "rate_limited");
    expect((await c.get("/requests")).body.data).toHaveLength(6);
  });
});
