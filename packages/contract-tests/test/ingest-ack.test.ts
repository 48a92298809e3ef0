// docs/product.md §3 (acknowledgment) and §7 (every error is problem+json with the trace id).
import { describe, expect, it } from "vitest";
import { api, type send } from "../src/client.ts";
import { INGEST_ENDPOINTS, order } from "../src/fixtures.ts";
import { expectProblem, failedWith, useSystem } from "../src/harness.ts";
import { targets } from "../src/targets.ts";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const UUID_V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const TRACE = "4bf92f3577b34da6a3ce929d0e0e4736";
const TRACEPARENT = `00-${TRACE}-00f067aa0ba902b7-01`;

describe.each(targets)("ingest acknowledgment — $name", (target) => {
  // Each test looks only at what it stored: it runs on the accounts of `--token` too.
  const h = useSystem(target, {}, { sharedAccounts: true });

  it.each(INGEST_ENDPOINTS)(
    "POST $kind: 202 {message, request_id, trace_id}, Location, Retry-After: 1, X-Trace-Id",
    async (endpoint) => {
      const c = await h.account();
      const body = endpoint.body();
      const res = await c.post(endpoint.path(), body);
      expect(res.status, res.text).toBe(202);
      expect(res.headers.get("content-type")).toMatch(/^application\/json/);
      expect(Object.keys(res.body).sort()).toEqual(["message", "request_id", "trace_id"]);
      expect(typeof res.body.message).toBe("string");
      expect(res.body.request_id).toMatch(UUID);
      expect(res.headers.get("location")).toBe(`/v2/requests/${res.body.request_id}`);
      expect(res.headers.get("retry-after")).toBe("1");
      expect(res.headers.get("x-trace-id")).toMatch(/^[0-9a-f]{32}$/);
      expect(res.body.trace_id).toBe(res.headers.get("x-trace-id"));
      expect(res.headers.get("idempotent-replayed")).toBeNull();

      // The Location is the request record, as accepted.
      const record = await c.get(res.headers.get("location") as string);
      expect(record.status).toBe(200);
      expect(record.body).toMatchObject({
        request_id: res.body.request_id,
        kind: endpoint.kind,
        trace_id: res.body.trace_id,
        idempotency_key: null,
        item_count: 1,
      });
      expect(["pending", "processing", "succeeded", "failed"]).toContain(record.body.status);
    },
  );

  it("request ids are UUIDs of version 7 (decision 001) whose time is the acceptance time", async () => {
    const c = await h.account();
    const before = Date.now();
    const id: string = (await c.ingest("/ingest/orders", { orders: [order()] })).body.request_id;
    const after = Date.now();
    expect(id).toMatch(UUID_V7);
    const ms = Number.parseInt(id.replaceAll("-", "").slice(0, 12), 16);
    // Same machine, but allow for clock granularity.
    expect(ms).toBeGreaterThanOrEqual(before - 1000);
    expect(ms).toBeLessThanOrEqual(after + 1000);
  });

  it("a valid traceparent gives its trace id to the response, the acknowledgment and the request record", async () => {
    const c = await h.account();
    const res = await c.ingest("/ingest/orders", { orders: [order()] }, { traceparent: TRACEPARENT });
    expect(res.headers.get("x-trace-id")).toBe(TRACE);
    expect(res.body.trace_id).toBe(TRACE);
    const record = await c.wait(res.body.request_id);
    expect(record.trace_id).toBe(TRACE);
    // Reads and errors take it too.
    expect((await c.get("/orders", { traceparent: TRACEPARENT })).headers.get("x-trace-id")).toBe(TRACE);
    const problem = expectProblem(await c.get("/orders/nope", { traceparent: TRACEPARENT }), 404);
    expect(problem.trace_id).toBe(TRACE);
  });

  it.each([
    ["garbage", "not-a-traceparent"],
    ["an all-zero trace id", `00-${"0".repeat(32)}-00f067aa0ba902b7-01`],
    ["upper-case hex (W3C requires lower case)", `00-${TRACE.toUpperCase()}-00f067aa0ba902b7-01`],
    ["a short trace id", "00-4bf92f3577b34da6-00f067aa0ba902b7-01"],
  ])(
    "an invalid traceparent (%s) is never rejected, and X-Trace-Id stays a valid lower-case trace id",
    async (_name, traceparent) => {
      const c = await h.account();
      const res = await c.ingest("/ingest/orders", { orders: [order()] }, { traceparent });
      const traceId = res.headers.get("x-trace-id");
      expect(traceId).toMatch(/^[0-9a-f]{32}$/);
      expect(traceId).not.toBe("0".repeat(32));
      expect(res.body.trace_id).toBe(traceId);
    },
  );

  it("each call without traceparent gets its own trace id", async () => {
    const c = await h.account();
    const ids = new Set<string | null>();
    for (let i = 0; i < 5; i++) ids.add((await c.get("/orders")).headers.get("x-trace-id"));
    expect(ids.size).toBe(5);
  });

  it("dispositions for an RMA not (yet) stored are accepted, and fail later with return_not_found at pointer ''", async () => {
    const c = await h.account();
    const record = await c.ingestAndWait("/ingest/returns/RMA-NOT-THERE/dispositions", {
      dispositions: [{ line_id: "L1", quantity: 1, outcome: "restock", decided_at: "2025-03-20T10:00:00Z" }],
    });
    expect(failedWith(record)).toEqual([["", "return_not_found"]]);
    expect(record.result).toBeNull();
    expect(record.error).toBeNull();
  });

  it("dispositions for an unknown server return id (ret_ + ULID) are 404 at once and not stored", async () => {
    h.need("accounts"); // "not stored": the account's request list stays empty
    const c = await h.account();
    const res = await c.post("/ingest/returns/ret_01JPSG5BNAPHTDHY3NB7Z638J1/dispositions", {
      dispositions: [{ line_id: "L1", quantity: 1, outcome: "restock", decided_at: "2025-03-20T10:00:00Z" }],
    });
    expectProblem(res, 404, "not_found");
    expect((await c.get("/requests")).body.data).toEqual([]);
  });

  describe("every error is application/problem+json with type, title, status, detail, code and the trace id", () => {
    const big = `{"orders":[{"external_id":"${"x".repeat(5 * 1024 * 1024)}"}]}`;
    const cases: [
      string,
      number,
      string,
      (c: Awaited<ReturnType<typeof h.account>>) => ReturnType<typeof send>,
    ][] = [
      ["no token", 401, "unauthorized", (c) => api(c.system).get("/orders")],
      ["unknown path", 404, "not_found", (c) => c.get("/nope")],
      ["unknown order", 404, "not_found", (c) => c.get("/orders/ORD-404")],
      ["wrong method", 405, "method_not_allowed", (c) => c.request("DELETE", "/orders")],
      [
        "malformed JSON",
        400,
        "invalid_json",
        (c) => c.post("/ingest/orders", "{", { "content-type": "application/json" }),
      ],
      ["schema violation", 400, "validation_failed", (c) => c.post("/ingest/orders", { orders: [] })],
      ["bad query", 400, "validation_failed", (c) => c.get("/orders?limit=0")],
      ["bad cursor", 400, "invalid_cursor", (c) => c.get("/orders?cursor=%25%25%25")],
      [
        "body too large",
        413,
        "payload_too_large",
        (c) => c.post("/ingest/orders", big, { "content-type": "application/json" }),
      ],
      [
        "not JSON",
        415,
        "unsupported_media_type",
        (c) => c.post("/ingest/orders", "orders=1", { "content-type": "application/x-www-form-urlencoded" }),
      ],
      [
        "idempotency key reused",
        422,
        "idempotency_key_reused",
        async (c) => {
          // A key of its own: on the kit's shared accounts, an earlier run used any fixed one.
          const key = `k-${crypto.randomUUID()}`;
          await c.ingest("/ingest/orders", { orders: [order()] }, { "idempotency-key": key });
          return c.post("/ingest/orders", { orders: [order()] }, { "idempotency-key": key });
        },
      ],
    ];

    it.each(cases)("%s → %i %s", async (_name, status, code, call) => {
      const c = await h.account();
      const res = await call(c);
      const problem = expectProblem(res, status, code);
      if (status === 400 && code === "validation_failed") {
        expect(problem.errors.length).toBeGreaterThan(0);
        for (const e of problem.errors) {
          expect(e).toEqual({
            pointer: expect.any(String),
            code: expect.any(String),
            message: expect.any(String),
          });
          expect(e.pointer).toMatch(/^(\/([^~/]|~[01])*)*$/);
        }
      }
    });
  });
});
