// What a caller sees of each call beyond its data: raw responses, trace ids, hooks, logs and
// the traceparent the client sends.
import { afterEach, describe, expect, it } from "vitest";
import { createClient, type OisrClient } from "./client.ts";
import { ApiError, RequestFailedError } from "./errors.ts";
import type { ApiPromise } from "./internal/api-promise.ts";
import { ack, BASE, client, order, REQUEST_ID, record } from "./internal/client-fixtures.ts";
import { fakeApi, json, problem } from "./internal/test-utils.ts";

const TRACE_ID = "0af7651916cd43dd8448eb211c80319c";
const page = (extra: Record<string, string> = {}) =>
  json({ data: [], next_cursor: "c", has_more: false }, 200, extra);
const subscription = json({ id: "whs_1", url: "https://x.test", events: [], status: "active" });

/** One fake API answering every call the resources make. */
const everything = {
  "POST /ingest/*": ack,
  "POST /ingest/returns/*/dispositions": ack,
  [`GET /requests/${REQUEST_ID}`]: record("succeeded"),
  "GET /requests": page(),
  "GET /requests/queue": json({ open: 0, pending: 0, processing: 0, oldest_open: null }),
  [`GET /requests/${REQUEST_ID}/body`]: json({ orders: [order] }),
  "GET /orders/*": json({ id: "ord_1" }),
  "GET /orders": page(),
  "GET /returns/*": json({ id: "ret_1" }),
  "GET /returns": page(),
  "GET /inventory": page(),
  "POST /webhook_subscriptions": subscription,
  "GET /webhook_subscriptions": page(),
  "GET /webhook_subscriptions/*": subscription,
  "PATCH /webhook_subscriptions/*": subscription,
  "DELETE /webhook_subscriptions/*": () => new Response(null, { status: 204 }),
  "POST /webhook_subscriptions/*/rotate_secret": subscription,
  "POST /webhook_subscriptions/*/test": json({ id: "dlv_1" }, 202),
  "GET /webhook_subscriptions/*/deliveries": page(),
  "POST /webhook_subscriptions/*/recover": json({ id: "whr_1", status: "running" }, 202),
  "GET /webhook_subscriptions/*/recoveries/*": json({ id: "whr_1", status: "completed" }),
  "POST /webhook_subscriptions/*/deliveries/*/retry": json({ id: "whd_2" }, 202),
  "POST /requests/retry": json({ count: 0, retries: [], has_more: false }, 202),
  "POST /requests/*/retry": ack,
};

/** Every resource method that returns a promise, called once. */
const promiseMethods: [string, (c: OisrClient) => ApiPromise<unknown>][] = [
  ["orders.ingest", (c) => c.orders.ingest([order])],
  ["orders.ingestAndWait", (c) => c.orders.ingestAndWait([order])],
  ["orders.get", (c) => c.orders.get("A-1")],
  ["orders.list", (c) => c.orders.list()],
  ["inventory.ingest", (c) => c.inventory.ingest([])],
  ["inventory.ingestAndWait", (c) => c.inventory.ingestAndWait([])],
  ["inventory.list", (c) => c.inventory.list()],
  ["shipments.ingest", (c) => c.shipments.ingest([])],
  ["shipments.ingestAndWait", (c) => c.shipments.ingestAndWait([])],
  ["returns.ingest", (c) => c.returns.ingest([])],
  ["returns.ingestAndWait", (c) => c.returns.ingestAndWait([])],
  ["returns.ingestDispositions", (c) => c.returns.ingestDispositions("RMA-1", [])],
  ["returns.ingestDispositionsAndWait", (c) => c.returns.ingestDispositionsAndWait("RMA-1", [])],
  ["returns.get", (c) => c.returns.get("RMA-1")],
  ["returns.list", (c) => c.returns.list()],
  ["requests.get", (c) => c.requests.get(REQUEST_ID)],
  ["requests.list", (c) => c.requests.list()],
  ["requests.queue", (c) => c.requests.queue()],
  ["requests.body", (c) => c.requests.body(REQUEST_ID)],
  ["requests.waitFor", (c) => c.requests.waitFor(REQUEST_ID)],
  ["requests.retry", (c) => c.requests.retry(REQUEST_ID)],
  [
    "requests.retryMany",
    (c) => c.requests.retryMany({ status: "dead", accepted_since: "2025-03-23T00:00:00Z" }),
  ],
  ["webhooks.create", (c) => c.webhooks.create({ url: "https://x.test", events: ["return.completed"] })],
  ["webhooks.list", (c) => c.webhooks.list()],
  ["webhooks.get", (c) => c.webhooks.get("whs_1")],
  ["webhooks.update", (c) => c.webhooks.update("whs_1", { status: "disabled" })],
  ["webhooks.delete", (c) => c.webhooks.delete("whs_1")],
  ["webhooks.rotateSecret", (c) => c.webhooks.rotateSecret("whs_1")],
  ["webhooks.test", (c) => c.webhooks.test("whs_1")],
  ["webhooks.deliveries", (c) => c.webhooks.deliveries("whs_1")],
  ["webhooks.recover", (c) => c.webhooks.recover("whs_1", { since: "2025-03-26T00:00:00Z" })],
  ["webhooks.getRecovery", (c) => c.webhooks.getRecovery("whs_1", "whr_1")],
  ["webhooks.retryDelivery", (c) => c.webhooks.retryDelivery("whs_1", "whd_1")],
];

describe("withResponse()", () => {
  it.each(promiseMethods)("%s gives the data and the final response", async (_name, call) => {
    const { client: c } = client(everything);
    const awaited = await call(c);
    const { data, response } = await call(c).withResponse();
    expect(data).toEqual(awaited);
    expect(response).toBeInstanceOf(Response);
    expect(response.ok).toBe(true);
  });

  it("covers every promise-returning method of every resource", () => {
    const { client: c } = client(everything);
    const resources = ["orders", "inventory", "shipments", "returns", "requests", "webhooks"] as const;
    const asyncIterators = ["iterate", "changes"];
    const all = resources.flatMap((r) =>
      Object.keys(c[r])
        .filter((m) => !asyncIterators.includes(m))
        .map((m) => `${r}.${m}`),
    );
    expect(all.sort()).toEqual(promiseMethods.map(([name]) => name).sort());
  });

  it("is the response after the retries, with its headers", async () => {
    const { client: c, calls } = client({
      "GET /orders": [
        problem(503, "service_unavailable", { "retry-after": "0" }),
        page({ "x-trace-id": TRACE_ID }),
      ],
    });
    const { response } = await c.orders.list().withResponse();
    expect(calls).toHaveLength(2);
    expect(response.status).toBe(200);
    expect(response.headers.get("x-trace-id")).toBe(TRACE_ID);
  });

  it("is the last poll's response for ingestAndWait and waitFor", async () => {
    const poll = (status: "processing" | "succeeded", n: string) => {
      const response = record(status);
      response.headers.set("x-poll", n);
      return response;
    };
    const { client: c } = client({
      "POST /ingest/orders": ack,
      [`GET /requests/${REQUEST_ID}`]: [poll("processing", "1"), poll("succeeded", "2")],
    });
    const { data, response } = await c.orders.ingestAndWait([order]).withResponse();
    expect(data.status).toBe("succeeded");
    expect(response.headers.get("x-poll")).toBe("2");
    const waited = await c.requests.waitFor(REQUEST_ID).withResponse();
    expect(waited.response.headers.get("x-poll")).toBe("2");
  });

  it("rejects with the call's error", async () => {
    const { client: c } = client({ "GET /orders/*": problem(404, "not_found") });
    await expect(c.orders.get("nope").withResponse()).rejects.toBeInstanceOf(ApiError);
  });

  it("gives a 204's response for webhooks.delete", async () => {
    const { client: c } = client(everything);
    const { data, response } = await c.webhooks.delete("whs_1").withResponse();
    expect(data).toBeUndefined();
    expect(response.status).toBe(204);
  });
});

describe("trace ids", () => {
  it("are on acknowledgments and request records", async () => {
    const { client: c } = client(everything);
    expect((await c.orders.ingest([order])).trace_id).toBe(TRACE_ID);
    expect((await c.requests.get(REQUEST_ID)).trace_id).toBe(TRACE_ID);
  });

  it("are on ApiError, from the body or else the X-Trace-Id header", async () => {
    const { client: c } = client({
      "GET /orders/A-1": problem(404, "not_found"),
      "GET /orders/A-2": new Response("<html>bad gateway</html>", {
        status: 400,
        headers: { "x-trace-id": "ffeeddccbbaa99887766554433221100" },
      }),
    });
    const fromBody = (await c.orders.get("A-1").catch((e: unknown) => e)) as ApiError;
    expect(fromBody.traceId).toBe(TRACE_ID);
    const fromHeader = (await c.orders.get("A-2").catch((e: unknown) => e)) as ApiError;
    expect(fromHeader.traceId).toBe("ffeeddccbbaa99887766554433221100");
  });

  it("is on RequestFailedError, from the record", async () => {
    const { client: c } = client({
      "POST /ingest/orders": ack,
      [`GET /requests/${REQUEST_ID}`]: record("dead", {
        trace_id: "11112222333344445555666677778888",
        error: { code: "processing_failed", message: "Processing failed" },
      }),
    });
    const err = (await c.orders.ingestAndWait([order]).catch((e: unknown) => e)) as RequestFailedError;
    expect(err).toBeInstanceOf(RequestFailedError);
    expect(err.traceId).toBe("11112222333344445555666677778888");
    expect(err.message).toContain("trace 11112222333344445555666677778888");
  });
});

describe("createClient observability options", () => {
  const OTEL_API = Symbol.for("opentelemetry.js.api.1");
  const SPAN_KEY = Symbol.for("OpenTelemetry Context Key SPAN");
  const globals = globalThis as { [OTEL_API]?: unknown };
  const spanContext = {
    traceId: "4bf92f3577b34da6a3ce929d0e0e4736",
    spanId: "00f067aa0ba902b7",
    traceFlags: 1,
  };
  const fromSpan = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";

  afterEach(() => {
    delete globals[OTEL_API];
  });

  function withFakeOtel() {
    const span = { spanContext: () => spanContext };
    globals[OTEL_API] = {
      version: "1.9.0",
      context: { active: () => ({ getValue: (key: symbol) => (key === SPAN_KEY ? span : undefined) }) },
    };
  }

  function make(options: Partial<Parameters<typeof createClient>[0]> = {}) {
    const api = fakeApi(everything);
    return {
      client: createClient({ baseUrl: BASE, token: "oisr_test", fetch: api.fetch, ...options }),
      calls: api.calls,
    };
  }

  it("sends the active OpenTelemetry span as traceparent by default", async () => {
    withFakeOtel();
    const { client: c, calls } = make();
    await c.orders.ingest([order]);
    await c.raw.GET("/orders");
    expect(calls.map((x) => x.headers.get("traceparent"))).toEqual([fromSpan, fromSpan]);
  });

  it("sends none without an active span, or with traceparent: false", async () => {
    const { client: plain, calls } = make();
    await plain.orders.list();
    withFakeOtel();
    const { client: off, calls: offCalls } = make({ traceparent: false });
    await off.orders.list();
    expect([...calls, ...offCalls].map((x) => x.headers.has("traceparent"))).toEqual([false, false]);
  });

  it("sends what a traceparent function returns, instead of OpenTelemetry's", async () => {
    withFakeOtel();
    const mine = "00-aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa-bbbbbbbbbbbbbbbb-00";
    const { client: c, calls } = make({ traceparent: () => mine });
    await c.orders.list();
    expect(calls[0]?.headers.get("traceparent")).toBe(mine);
  });

  it("lets a traceparent set on a raw call win", async () => {
    withFakeOtel();
    const mine = "00-cccccccccccccccccccccccccccccccc-dddddddddddddddd-01";
    const { client: c, calls } = make();
    await c.raw.GET("/orders", { params: { header: { traceparent: mine } } });
    expect(calls[0]?.headers.get("traceparent")).toBe(mine);
  });

  it("runs the hooks and the logger for helper and raw calls alike", async () => {
    const statuses: number[] = [];
    const lines: string[] = [];
    const line = (message: string) => void lines.push(message);
    const { client: c } = make({
      hooks: { onResponse: ({ response }) => void statuses.push(response.status) },
      logger: { error: line, warn: line, info: line, debug: line },
      logLevel: "info",
    });
    await c.orders.ingest([order]);
    await c.raw.GET("/orders");
    expect(statuses).toEqual([202, 200]);
    expect(lines.map((l) => l.replace(/\d+ ms/, "N ms"))).toEqual([
      "oisr: POST /ingest/orders → 202 in N ms (attempt 1)",
      "oisr: GET /orders → 200 in N ms (attempt 1)",
    ]);
  });
});
