import { afterEach, describe, expect, it, vi } from "vitest";
import { createClient } from "./client.ts";
import {
  ApiError,
  AuthenticationError,
  ConflictError,
  NotFoundError,
  RateLimitError,
  RequestFailedError,
  ValidationError,
} from "./errors.ts";
import { fakeApi, json, problem } from "./internal/test-utils.ts";
import type { OrderInput, RequestRecord } from "./types.ts";

const BASE = "https://api.test/v2";
const REQUEST_ID = "0193a0b8-0000-7000-8000-000000000001";
const ack = json({ message: "Accepted", request_id: REQUEST_ID, trace_id: "0af7651916cd43dd8448eb211c80319c" }, 202, {
  location: `/v2/requests/${REQUEST_ID}`,
  "retry-after": "1",
});
const order = { external_id: "A-1" } as OrderInput;
const record = (status: RequestRecord["status"], extra: Partial<RequestRecord> = {}) =>
  json({
    request_id: REQUEST_ID,
    kind: "orders",
    status,
    trace_id: "0af7651916cd43dd8448eb211c80319c",
    idempotency_key: null,
    item_count: 1,
    accepted_at: "2025-01-01T12:00:00Z",
    started_at: null,
    completed_at: null,
    attempts: status === "pending" ? 0 : 1,
    result: null,
    errors: [],
    error: null,
    ...extra,
  });

function client(routes: Parameters<typeof fakeApi>[0], options: { maxRetries?: number; throttle?: boolean } = {}) {
  const api = fakeApi(routes);
  return { client: createClient({ baseUrl: BASE, token: "oisr_test", fetch: api.fetch, ...options }), calls: api.calls };
}

afterEach(() => {
  vi.useRealTimers();
});

describe("createClient", () => {
  it("rejects missing options early", () => {
    expect(() => createClient({ baseUrl: "", token: "x" })).toThrow(TypeError);
    expect(() => createClient({ baseUrl: BASE, token: "" })).toThrow(TypeError);
  });

  it("sends the bearer token and the batch, and returns the acknowledgment", async () => {
    const { client: c, calls } = client({ "POST /ingest/orders": ack });
    const result = await c.orders.ingest([order]);
    expect(result.request_id).toBe(REQUEST_ID);
    expect(calls[0]?.url).toBe(`${BASE}/ingest/orders`);
    expect(calls[0]?.headers.get("authorization")).toBe("Bearer oisr_test");
    expect(JSON.parse(calls[0]?.body ?? "")).toEqual({ orders: [order] });
    expect(calls[0]?.headers.get("idempotency-key")).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("uses the caller's idempotency key on every attempt", async () => {
    const { client: c, calls } = client({ "POST /ingest/returns/*/dispositions": [problem(503, "service_unavailable", { "retry-after": "0" }), ack] });
    await c.returns.ingestDispositions("RMA 7/1", [{ line_id: "1" } as never], { idempotencyKey: "dsp-batch-7" });
    expect(calls.map((x) => x.headers.get("idempotency-key"))).toEqual(["dsp-batch-7", "dsp-batch-7"]);
    expect(calls[0]?.url).toBe(`${BASE}/ingest/returns/RMA%207%2F1/dispositions`);
  });

  it.each([
    ["inventory", (c: ReturnType<typeof createClient>) => c.inventory.ingest([{ location_id: "WH-1" } as never]), "/ingest/inventory", "snapshots"],
    ["shipments", (c: ReturnType<typeof createClient>) => c.shipments.ingest([{ external_id: "S-1" } as never]), "/ingest/shipments", "shipments"],
    ["returns", (c: ReturnType<typeof createClient>) => c.returns.ingest([{ external_id: "R-1" } as never]), "/ingest/returns", "returns"],
  ])("ingests %s", async (_name, call, path, key) => {
    const { client: c, calls } = client({ [`POST ${path}`]: ack });
    await call(c);
    expect(calls[0]?.url).toBe(`${BASE}${path}`);
    expect(Object.keys(JSON.parse(calls[0]?.body ?? ""))).toEqual([key]);
  });
});

describe("errors", () => {
  it.each([
    [400, "validation_failed", ValidationError],
    [401, "unauthorized", AuthenticationError],
    [404, "not_found", NotFoundError],
    [422, "idempotency_key_reused", ConflictError],
    [429, "rate_limited", RateLimitError],
    [413, "payload_too_large", ApiError],
    [500, "internal_error", ApiError],
  ] as const)("maps %i %s to %o", async (status, code, ErrorClass) => {
    const { client: c } = client({ "POST /ingest/orders": problem(status, code, { "retry-after": "7" }) }, { maxRetries: 0 });
    const err = await c.orders.ingest([order]).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ErrorClass);
    expect(err).toMatchObject({ status, code, traceId: "0af7651916cd43dd8448eb211c80319c" });
    expect((err as ApiError).problem.status).toBe(status);
    expect((err as Error).message).toContain(code);
  });

  it("exposes field errors of a ValidationError and the wait of a RateLimitError", async () => {
    const { client: c } = client(
      {
        "POST /ingest/orders": problem(400, "validation_failed", {}, { errors: [{ pointer: "/orders/0/currency", code: "enum", message: "bad" }] }),
        "GET /orders": problem(429, "rate_limited", { "retry-after": "7" }),
      },
      { maxRetries: 0 },
    );
    const v = (await c.orders.ingest([order]).catch((e: unknown) => e)) as ValidationError;
    expect(v.errors).toEqual([{ pointer: "/orders/0/currency", code: "enum", message: "bad" }]);
    const r = (await c.orders.list().catch((e: unknown) => e)) as RateLimitError;
    expect(r.retryAfterMs).toBe(7_000);
  });

  it("turns a body that is not problem+json into a problem, keeping the trace id header", async () => {
    const { client: c } = client(
      { "GET /orders/*": new Response("<html>Bad gateway</html>", { status: 502, statusText: "Bad Gateway", headers: { "x-trace-id": "abc" } }) },
      { maxRetries: 0 },
    );
    const err = (await c.orders.get("A-1").catch((e: unknown) => e)) as ApiError;
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ status: 502, code: undefined, traceId: "abc" });
    expect(err.problem).toMatchObject({ title: "Bad Gateway", status: 502 });
  });
});

describe("ingestAndWait and requests", () => {
  it("polls the request until it succeeds, reporting progress", async () => {
    vi.useFakeTimers();
    const { client: c, calls } = client({
      "POST /ingest/orders": ack,
      [`GET /requests/${REQUEST_ID}`]: [record("pending"), record("processing"), record("succeeded", { result: { created: 1 } as never })],
    });
    const progress: string[] = [];
    const p = c.orders.ingestAndWait([order], { onProgress: (r) => progress.push(r.status) });
    await vi.advanceTimersByTimeAsync(1_000);
    const final = await p;
    expect(final.status).toBe("succeeded");
    expect(progress).toEqual(["pending", "processing", "succeeded"]);
    expect(calls.filter((x) => x.method === "GET")).toHaveLength(3);
  });

  it.each(["failed", "dead"] as const)("throws RequestFailedError carrying the record when the request is %s", async (status) => {
    vi.useFakeTimers();
    const errors: RequestRecord["errors"] =
      status === "failed" ? [{ pointer: "/orders/0/lines/0/quantity", code: "line_below_shipped", message: "below shipped" }] : [];
    const error: RequestRecord["error"] = status === "dead" ? { code: "processing_failed", message: "Processing failed" } : null;
    const { client: c } = client({ "POST /ingest/orders": ack, [`GET /requests/${REQUEST_ID}`]: record(status, { errors, error }) });
    const p = c.orders.ingestAndWait([order]).catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(500);
    const err = (await p) as RequestFailedError;
    expect(err).toBeInstanceOf(RequestFailedError);
    expect(err.record.status).toBe(status);
    expect(err.record.errors).toEqual(errors);
  });

  it("requests.waitFor resumes by id and returns a failed record without throwing", async () => {
    const { client: c } = client({ [`GET /requests/${REQUEST_ID}`]: record("failed") });
    await expect(c.requests.waitFor(REQUEST_ID)).resolves.toMatchObject({ status: "failed" });
  });

  it("requests.get maps 404 to NotFoundError", async () => {
    const { client: c } = client({});
    await expect(c.requests.get(REQUEST_ID)).rejects.toBeInstanceOf(NotFoundError);
  });
});

describe("lists", () => {
  it("iterate sends the filters with every cursor and yields every item", async () => {
    const { client: c, calls } = client({
      "GET /orders": (req: Request) => {
        const cursor = new URL(req.url).searchParams.get("cursor");
        if (!cursor) return json({ data: [{ id: "ord_1" }, { id: "ord_2" }], next_cursor: "c1", has_more: true });
        return json({ data: [{ id: "ord_3" }], next_cursor: "c2", has_more: false });
      },
    });
    const ids: string[] = [];
    for await (const o of c.orders.iterate({ status: "open", limit: 2 })) ids.push(o.id);
    expect(ids).toEqual(["ord_1", "ord_2", "ord_3"]);
    const queries = calls.map((x) => Object.fromEntries(new URL(x.url).searchParams));
    expect(queries).toEqual([
      { status: "open", limit: "2" },
      { status: "open", limit: "2", cursor: "c1" },
    ]);
  });

  it("changes yields {order, cursor} and {return, cursor} and resumes with the filters", async () => {
    const page = (data: unknown[], next: string) => json({ data, next_cursor: next, has_more: false });
    const { client: c, calls } = client({ "GET /orders": page([{ id: "ord_1" }], "o1"), "GET /returns": page([{ id: "ret_1" }], "r1") });
    const controller = new AbortController();
    for await (const change of c.orders.changes({ cursor: "o0", source: "pos-1", signal: controller.signal })) {
      expect(change).toEqual({ order: { id: "ord_1" }, cursor: "o1" });
      controller.abort();
    }
    const controller2 = new AbortController();
    for await (const change of c.returns.changes({ signal: controller2.signal })) {
      expect(change).toEqual({ return: { id: "ret_1" }, cursor: "r1" });
      controller2.abort();
    }
    expect(Object.fromEntries(new URL(calls[0]?.url ?? "").searchParams)).toEqual({ cursor: "o0", source: "pos-1" });
  });
});

describe("webhooks", () => {
  it("covers create, get, update, delete, rotateSecret, test and deliveries", async () => {
    const sub = { id: "whs_1", url: "https://x.test/hook" };
    const { client: c, calls } = client({
      "POST /webhook_subscriptions": json({ ...sub, secret: "whsec_AAAA" }, 201),
      "GET /webhook_subscriptions/*": json(sub),
      "PATCH /webhook_subscriptions/*": json(sub),
      "DELETE /webhook_subscriptions/*": new Response(null, { status: 204 }),
      "POST /webhook_subscriptions/*/rotate_secret": json({ ...sub, secret: "whsec_BBBB" }),
      "POST /webhook_subscriptions/*/test": json({ event_id: "evt_1" }, 202),
      "GET /webhook_subscriptions/*/deliveries": json({ data: [], next_cursor: "d0", has_more: false }),
    });
    expect((await c.webhooks.create({ url: sub.url, events: ["return.completed"] } as never)).secret).toBe("whsec_AAAA");
    expect(await c.webhooks.get("whs_1")).toEqual(sub);
    await c.webhooks.update("whs_1", { status: "disabled" } as never);
    await expect(c.webhooks.delete("whs_1")).resolves.toBeUndefined();
    expect((await c.webhooks.rotateSecret("whs_1")).secret).toBe("whsec_BBBB");
    await c.webhooks.test("whs_1");
    expect((await c.webhooks.deliveries("whs_1")).data).toEqual([]);
    expect(calls.map((x) => `${x.method} ${new URL(x.url).pathname}`)).toEqual([
      "POST /v2/webhook_subscriptions",
      "GET /v2/webhook_subscriptions/whs_1",
      "PATCH /v2/webhook_subscriptions/whs_1",
      "DELETE /v2/webhook_subscriptions/whs_1",
      "POST /v2/webhook_subscriptions/whs_1/rotate_secret",
      "POST /v2/webhook_subscriptions/whs_1/test",
      "GET /v2/webhook_subscriptions/whs_1/deliveries",
    ]);
    expect(calls.every((x) => !x.headers.has("idempotency-key"))).toBe(true);
  });
});

describe("raw", () => {
  it("shares auth and retries and returns { data, error } instead of throwing", async () => {
    const { client: c, calls } = client({ "GET /orders/*": [problem(503, "service_unavailable", { "retry-after": "0" }), problem(404, "not_found")] });
    const { data, error, response } = await c.raw.GET("/orders/{identifier}", { params: { path: { identifier: "A-1" } } });
    expect(data).toBeUndefined();
    expect(error).toMatchObject({ code: "not_found" });
    expect(response.status).toBe(404);
    expect(calls).toHaveLength(2);
    expect(calls[1]?.headers.get("authorization")).toBe("Bearer oisr_test");
  });

  it("aborts a call through the caller's signal", async () => {
    const { client: c } = client({ "GET /orders/*": (req: Request) => new Promise<Response>((_, reject) => req.signal.addEventListener("abort", () => reject(req.signal.reason))) });
    const controller = new AbortController();
    const p = c.orders.get("A-1", { signal: controller.signal });
    setTimeout(() => controller.abort(), 5);
    await expect(p).rejects.toMatchObject({ name: "AbortError" });
  });
});
