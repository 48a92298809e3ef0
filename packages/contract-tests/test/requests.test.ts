// docs/product.md §4: request records, their states and GET /requests.
import { describe, expect, it } from "vitest";
import type { Json } from "../src/client.ts";
import { at, order, shipment, snapshot, uid } from "../src/fixtures.ts";
import { type Client, expectProblem, useSystem } from "../src/harness.ts";
import { targets } from "../src/targets.ts";

const ORDER = ["pending", "processing", "succeeded"];

/** The invariants every record must satisfy in its state. */
function checkRecord(r: Json) {
  expect(Object.keys(r).sort()).toEqual(
    [
      "accepted_at",
      "api_key_id",
      "attempts",
      "completed_at",
      "error",
      "errors",
      "idempotency_key",
      "item_count",
      "kind",
      "request_id",
      "result",
      "retried_by",
      "retry_of",
      "started_at",
      "status",
      "trace_id",
    ].sort(),
  );
  // Every request of these tests was submitted with a key: the record names it, never the secret.
  expect(r.api_key_id).toMatch(/^key_[0-9A-HJKMNP-TV-Z]{26}$/);
  switch (r.status) {
    case "pending":
      expect(r).toMatchObject({
        started_at: null,
        completed_at: null,
        result: null,
        errors: [],
        error: null,
      });
      break;
    case "processing":
      expect(r).toMatchObject({ completed_at: null, result: null, errors: [], error: null });
      expect(r.started_at).not.toBeNull();
      expect(r.attempts).toBeGreaterThanOrEqual(1);
      break;
    case "succeeded":
      expect(r).toMatchObject({ errors: [], error: null });
      expect(r.result.created + r.result.updated + r.result.unchanged + r.result.stale).toBe(r.item_count);
      expect(r.result.items).toHaveLength(r.item_count);
      break;
    case "failed":
      expect(r).toMatchObject({ result: null, error: null });
      expect(r.errors.length).toBeGreaterThan(0);
      break;
    case "dead":
      expect(r).toMatchObject({ result: null, errors: [] });
      expect(r.error.code).toBe("processing_failed");
      break;
  }
  if (r.completed_at) expect(r.started_at <= r.completed_at).toBe(true);
  if (r.started_at) expect(r.accepted_at <= r.started_at).toBe(true);
}

async function list(c: Client, q: string): Promise<Json> {
  const res = await c.get(`/requests${q}`);
  expect(res.status, res.text).toBe(200);
  expect(Object.keys(res.body).sort()).toEqual(["data", "has_more", "next_cursor"]);
  expect(typeof res.body.next_cursor).toBe("string");
  return res.body;
}

/** Three finished requests, oldest first: orders (succeeded), inventory (succeeded), shipments (failed). */
/** A few milliseconds between two acceptances: a fast target accepted two in one millisecond. */
const tick = () => new Promise((r) => setTimeout(r, 5));

async function three(c: Client) {
  const acks = [
    await c.ingest("/ingest/orders", { orders: [order(), order()] }),
    await tick().then(() =>
      c.ingest("/ingest/inventory", {
        snapshots: [snapshot("WH", at(0), "full", [{ sku: "S", on_hand: 1, available: 1 }])],
      }),
    ),
    await tick().then(() =>
      c.ingest("/ingest/shipments", { shipments: [shipment(uid("ORD"))] }, { "idempotency-key": "ship-1" }),
    ),
  ];
  const ids = acks.map((a) => a.body.request_id as string);
  for (const id of ids) await c.wait(id);
  return ids;
}

describe.each(targets)("requests — $name", (target) => {
  const h = useSystem(target);

  it("every state a request passes through satisfies its invariants, in the order pending → processing → final", async () => {
    const c = await h.account();
    // A big batch first, so the small one behind it is observably pending for a while.
    const big = await c.ingest("/ingest/orders", { orders: Array.from({ length: 500 }, () => order()) });
    const small = await c.ingest("/ingest/orders", { orders: [order()] });
    for (const ack of [big, small]) {
      const seen: string[] = [];
      const final = await c.wait(ack.body.request_id, {
        intervalMs: 5,
        observe: (r) => {
          checkRecord(r);
          if (seen.at(-1) !== r.status) seen.push(r.status);
        },
      });
      expect(final.status).toBe("succeeded");
      const positions = seen.map((s) => ORDER.indexOf(s));
      expect([...positions].sort((a, b) => a - b)).toEqual(positions);
    }
  });

  it("a 202 is readable at once: 20 concurrent callers, each reading its record right after every ingest, never get a 404", async () => {
    // docs/product.md §3: the call is stored before it is answered. Concurrency matters: a driver setting
    // once let the 202 overtake the insert's commit under load (1–18 of 400 pairs, session 6).
    const c = await h.account();
    const missing: string[] = [];
    await Promise.all(
      Array.from({ length: 20 }, async () => {
        for (let i = 0; i < 20; i++) {
          const ack = await c.ingest("/ingest/orders", { orders: [order()] });
          const read = await c.get(`/requests/${ack.body.request_id}`);
          if (read.status !== 200) missing.push(`${ack.body.request_id}: ${read.status}`);
        }
      }),
    );
    expect(missing).toEqual([]);
  });

  it("GET /requests lists the account's requests newest first, with complete records", async () => {
    const c = await h.account();
    const ids = await three(c);
    const page = await list(c, "");
    expect(page.data.map((r: Json) => r.request_id)).toEqual([...ids].reverse());
    expect(page.data.map((r: Json) => [r.kind, r.status, r.item_count])).toEqual([
      ["shipments", "failed", 1],
      ["inventory", "succeeded", 1],
      ["orders", "succeeded", 2],
    ]);
    expect(page.data[0].idempotency_key).toBe("ship-1");
    expect(page.has_more).toBe(false);
    for (const r of page.data) {
      checkRecord(r);
      // The list shows exactly what GET /requests/{id} shows.
      expect((await c.get(`/requests/${r.request_id}`)).body).toEqual(r);
    }
  });

  it("filters by status and by kind", async () => {
    const c = await h.account();
    const [orders, inventory, shipments] = await three(c);
    expect((await list(c, "?status=failed")).data.map((r: Json) => r.request_id)).toEqual([shipments]);
    expect((await list(c, "?status=succeeded")).data.map((r: Json) => r.request_id)).toEqual([
      inventory,
      orders,
    ]);
    expect((await list(c, "?kind=inventory")).data.map((r: Json) => r.request_id)).toEqual([inventory]);
    expect((await list(c, "?kind=orders&status=succeeded")).data.map((r: Json) => r.request_id)).toEqual([
      orders,
    ]);
    expect((await list(c, "?kind=returns")).data).toEqual([]);
    expect((await list(c, "?status=dead")).data).toEqual([]);
  });

  it("filters by the time of acceptance: accepted_since ≤ accepted_at < accepted_until; the cursor carries the window", async () => {
    const c = await h.account();
    const [orders, inventory, shipments] = await three(c);
    const at = async (id: string | undefined) => (await c.get(`/requests/${id}`)).body.accepted_at as string;
    const [second, third] = [await at(inventory), await at(shipments)];
    const q = (query: string) => list(c, `?${query}`);
    const ids = (page: Json) => page.data.map((r: Json) => r.request_id);
    expect(ids(await q(`accepted_since=${second}`))).toEqual([shipments, inventory]);
    expect(ids(await q(`accepted_until=${second}`))).toEqual([orders]);
    expect(ids(await q(`accepted_since=${second}&accepted_until=${third}`))).toEqual([inventory]);
    expect(ids(await q(`accepted_since=${third}&accepted_until=${second}`))).toEqual([]);
    expect(ids(await q(`accepted_since=${second}&status=failed`))).toEqual([shipments]);
    const first = await q(`accepted_since=${second}&limit=1`);
    expect(first.has_more).toBe(true);
    const next = await q(`accepted_since=${second}&limit=1&cursor=${encodeURIComponent(first.next_cursor)}`);
    expect(ids(next)).toEqual([inventory]);
    // Sent alone, the cursor keeps its window; with another window it is refused.
    expect(ids(await q(`limit=1&cursor=${encodeURIComponent(first.next_cursor)}`))).toEqual([inventory]);
    expectProblem(
      await c.get(`/requests?accepted_since=${third}&cursor=${encodeURIComponent(first.next_cursor)}`),
      400,
      "invalid_cursor",
    );
    // A date-time that is no calendar instant is refused like any invalid query value.
    expectProblem(await c.get("/requests?accepted_since=2025-02-30T00:00:00Z"), 400, "validation_failed");
  });

  it("pages with limit and next_cursor: next_cursor on every page, the last and empty ones too", async () => {
    const c = await h.account();
    const ids = await three(c);
    const seen: string[] = [];
    const hasMore: boolean[] = [];
    let cursor = "";
    for (let i = 0; i < 4; i++) {
      const page = await list(c, `?limit=1${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`);
      seen.push(...page.data.map((r: Json) => r.request_id));
      hasMore.push(page.has_more);
      cursor = page.next_cursor;
      if (!page.has_more) break;
    }
    expect(seen).toEqual([...ids].reverse());
    expect(hasMore).toEqual([true, true, false]);
    const empty = await list(c, `?limit=1&cursor=${encodeURIComponent(cursor)}`);
    expect(empty).toEqual({ data: [], next_cursor: expect.any(String), has_more: false });
    // Filtered pages carry their filter.
    const first = await list(c, "?status=succeeded&limit=1");
    expect(first.has_more).toBe(true);
    const second = await list(c, `?status=succeeded&limit=1&cursor=${encodeURIComponent(first.next_cursor)}`);
    expect(second.data.map((r: Json) => r.request_id)).toEqual([ids[0]]);
    expectProblem(
      await c.get(`/requests?status=failed&cursor=${encodeURIComponent(first.next_cursor)}`),
      400,
      "invalid_cursor",
    );
    expectProblem(
      await c.get(`/requests?kind=orders&cursor=${encodeURIComponent(first.next_cursor)}`),
      400,
      "invalid_cursor",
    );
  });

  it("a fresh account has an empty list, with a cursor", async () => {
    const c = await h.account();
    expect(await list(c, "")).toEqual({ data: [], next_cursor: expect.any(String), has_more: false });
  });

  it("an unknown request id is 404", async () => {
    const c = await h.account();
    expectProblem(await c.get("/requests/019593ed-b960-7678-bfcc-cf7dbea23c69"), 404, "not_found");
  });

  it("GET /requests/{id}/body answers the body as submitted, and a failed record's error pointers resolve in it", async () => {
    const c = await h.account();
    const body = { shipments: [shipment(uid("ORD")), shipment(uid("ORD"))] };
    const ack = await c.ingest("/ingest/shipments", body);
    const record = await c.wait(ack.body.request_id);
    expect(record.status).toBe("failed");
    const res = await c.get(`/requests/${ack.body.request_id}/body`);
    expect(res.status, res.text).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    expect(res.body).toEqual(body);
    // RFC 6901: every pointer names a member that exists in the answered body.
    const resolve = (doc: Json, pointer: string): unknown =>
      pointer
        .split("/")
        .slice(1)
        .map((t) => t.replace(/~1/g, "/").replace(/~0/g, "~"))
        .reduce((node: Json, token) => (node === undefined ? undefined : node[token]), doc);
    expect(record.errors.length).toBe(2);
    for (const e of record.errors) expect(resolve(res.body, e.pointer), e.pointer).not.toBeUndefined();
  });

  it("GET /requests/{id}/body is 404 for an unknown id and another account's request, 400 for a malformed id", async () => {
    const c = await h.account();
    const other = await h.account();
    const ack = await c.ingest("/ingest/orders", { orders: [order()] });
    expectProblem(await c.get("/requests/019593ed-b960-7678-bfcc-cf7dbea23c69/body"), 404, "not_found");
    expectProblem(await c.get("/requests/not-a-uuid/body"), 400, "validation_failed");
    expectProblem(await other.get(`/requests/${ack.body.request_id}/body`), 404, "not_found");
  });

  it("GET /requests/queue: empty on a fresh account; while requests run, open = pending + processing and the head is the first accepted one not final; empty once all are final", async () => {
    const c = await h.account();
    const empty = { open: 0, pending: 0, processing: 0, oldest_open: null };
    expect((await c.get("/requests/queue")).body).toEqual(empty);
    // Whether a sample catches requests open depends on the target (embedded PGlite has one
    // connection, so a read waits for the worker's stage to commit); the server's own test pins an
    // open queue by running without workers (packages/server/test/request-queue.test.ts).
    const ids: string[] = [];
    ids.push(
      (await c.ingest("/ingest/orders", { orders: Array.from({ length: 500 }, () => order()) })).body
        .request_id,
    );
    for (let i = 0; i < 3; i++)
      ids.push((await c.ingest("/ingest/orders", { orders: [order()] })).body.request_id);
    for (;;) {
      const res = await c.get("/requests/queue");
      expect(res.status, res.text).toBe(200);
      const q = res.body;
      expect(q.open).toBe(q.pending + q.processing);
      if (q.open === 0) {
        expect(q).toEqual(empty);
        break;
      }
      expect(q.open).toBeLessThanOrEqual(ids.length);
      const at = ids.indexOf(q.oldest_open.request_id);
      expect(at).toBeGreaterThanOrEqual(0);
      const head = await c.get(`/requests/${q.oldest_open.request_id}`);
      expect(q.oldest_open.accepted_at).toBe(head.body.accepted_at);
      // Requests apply in acceptance order: every one accepted before the head is final.
      for (const earlier of ids.slice(0, at)) {
        expect(["succeeded", "failed", "dead"]).toContain((await c.get(`/requests/${earlier}`)).body.status);
      }
      await new Promise((r) => setTimeout(r, 5));
    }
    for (const id of ids) expect((await c.wait(id)).status).toBe("succeeded");
  });

  it("request ids are found whatever the case of their hex digits", async () => {
    const c = await h.account();
    const ack = await c.ingest("/ingest/orders", { orders: [order()] });
    const res = await c.get(`/requests/${String(ack.body.request_id).toUpperCase()}`);
    expect(res.status).toBe(200);
    expect(res.body.request_id).toBe(ack.body.request_id);
  });
});
