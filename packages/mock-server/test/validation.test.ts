// Requests that do not match the spec get the server's problem+json answers.
import { describe, expect, it } from "vitest";
import { answered, frozenMock, order } from "./support.ts";

const J = { "content-type": "application/json" };

describe("validation and HTTP errors", () => {
  it.each([
    [
      "a missing required field",
      { orders: [{ ...order("A"), currency: undefined }] },
      { pointer: "/orders/0/currency", code: "required" },
    ],
    [
      "a server-owned field",
      { orders: [{ ...order("A"), id: "ord_x" }] },
      { pointer: "/orders/0/id", code: "additionalProperties" },
    ],
    [
      "a derived status",
      { orders: [order("A", { status: "shipped" })] },
      {
        pointer: "/orders/0/status",
        code: "enum",
        message: "must be equal to one of the allowed values: open, on_hold, cancelled",
      },
    ],
    [
      "a null optional field",
      { orders: [order("A", { order_number: null })] },
      { pointer: "/orders/0/order_number", code: "type" },
    ],
    [
      "a bad timestamp",
      { orders: [order("A", { placed_at: "yesterday" })] },
      { pointer: "/orders/0/placed_at", code: "format" },
    ],
    ["an empty batch", { orders: [] }, { pointer: "/orders", code: "minItems" }],
    [
      "a batch over 1000",
      { orders: Array.from({ length: 1001 }, (_, i) => order(`O${i}`)) },
      { pointer: "/orders", code: "maxItems" },
    ],
  ])("refuses %s as 400 validation_failed, with the body pointer", async (_name, body, error) => {
    const { mock, call } = frozenMock();
    const res = await call("POST", "/ingest/orders", body);
    expect(res.status).toBe(400);
    expect(res.headers.get("content-type")).toBe("application/problem+json; charset=utf-8");
    expect(res.body).toMatchObject({
      type: "https://oisr.dev/problems/validation_failed",
      title: "Request does not match the API schema",
      status: 400,
      code: "validation_failed",
      trace_id: res.headers.get("x-trace-id"),
    });
    expect(res.body.errors).toEqual([expect.objectContaining(error)]);
    expect(mock.controls.requests()).toEqual([]);
  });

  it.each([
    ["/orders?limit=abc", { pointer: "/query/limit", code: "type" }],
    ["/orders?limit=0", { pointer: "/query/limit", code: "minimum" }],
    ["/orders?limit=201", { pointer: "/query/limit", code: "maximum" }],
    ["/orders?status=nope", { pointer: "/query/status", code: "enum" }],
    ["/orders?foo=1", { pointer: "/query/foo", code: "invalid", message: "Unknown query parameter 'foo'" }],
    ["/orders?status=", { pointer: "/query/status", code: "invalid" }],
    ["/requests/not-a-uuid", { pointer: "/params/request_id", code: "format" }],
    [`/orders/${"x".repeat(129)}`, { pointer: "/params/identifier", code: "maxLength" }],
  ])("refuses GET %s with a parameter pointer", async (path, error) => {
    const { call } = frozenMock();
    const res = await call("GET", path);
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([expect.objectContaining(error)]);
  });

  // Decimal digits only: Ajv alone reads them with Number (0x10 as 16; issue 25), as on the server.
  it.each(["0x10", "1e1", "0b11", "5.0", "%2B5", "%205", "5%20", "Infinity", "1e3"])(
    "refuses GET /orders?limit=%s as no integer, with that one error",
    async (limit) => {
      const { call } = frozenMock();
      const res = await call("GET", `/orders?limit=${limit}`);
      expect(res.status).toBe(400);
      expect(res.body.errors).toEqual([
        { pointer: "/query/limit", code: "type", message: "must be integer" },
      ]);
    },
  );

  it("takes limit=007 as 7 (leading zeros are decimal digits)", async () => {
    const { call } = frozenMock();
    expect((await call("GET", "/orders?limit=007")).status).toBe(200);
  });

  it("checks the Idempotency-Key header", async () => {
    const { call } = frozenMock();
    const res = await call(
      "POST",
      "/ingest/orders",
      { orders: [order("A")] },
      { "idempotency-key": "k".repeat(256) },
    );
    expect(res.body.errors).toContainEqual(
      expect.objectContaining({ pointer: "/headers/idempotency-key", code: "maxLength" }),
    );
  });

  it.each([
    ["malformed JSON", "{oops", J, 400, "invalid_json"],
    ["a JSON scalar (valid JSON, not an object)", '"x"', J, 400, "validation_failed"],
    ["a text body", "hello", { "content-type": "text/plain" }, 415, "unsupported_media_type"],
    ["no content type", undefined, {}, 415, "unsupported_media_type"],
    [
      "a body over 5 MiB",
      JSON.stringify({ orders: [order("A", { metadata: { x: "y".repeat(5 * 1024 * 1024) } })] }),
      J,
      413,
      "payload_too_large",
    ],
  ])("answers %s with the right problem", async (_name, body, headers, status, code) => {
    const { call } = frozenMock();
    const res = await call("POST", "/ingest/orders", body, headers);
    expect(res.status).toBe(status);
    expect(res.body.code).toBe(code);
  });

  it("lists every problem of a body, with RFC 6901 pointers", async () => {
    const { call } = frozenMock();
    const res = await call("POST", "/ingest/orders", {
      orders: [order("A", { currency: "usd", "a/b~c": 1 }), order("B", { lines: [] })],
    });
    expect(res.body.errors.map((e: { pointer: string; code: string }) => [e.pointer, e.code])).toEqual(
      expect.arrayContaining([
        ["/orders/0/currency", "pattern"],
        ["/orders/0/a~1b~0c", "additionalProperties"],
        ["/orders/1/lines", "minItems"],
      ]),
    );
  });

  it("answers unknown paths 404 and wrong methods 405 with Allow", async () => {
    const { call } = frozenMock();
    expect((await call("GET", "/nope")).body).toMatchObject({ status: 404, code: "not_found" });
    const wrong = await call("PUT", "/webhook_subscriptions/whs_1");
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get("allow")).toBe("DELETE, PATCH, GET");
    expect(wrong.body).toMatchObject({ code: "method_not_allowed", detail: "PUT method not allowed" });
  });

  it("authenticates before anything else", async () => {
    const { mock } = frozenMock();
    const res = await mock.handle(
      new Request(`${mock.baseUrl}/nope`, { method: "POST", body: "{oops", headers: J }),
    );
    expect(res?.status).toBe(401);
    expect(await res?.json()).toMatchObject({
      code: "unauthorized",
      detail: "Send `Authorization: Bearer <token>`.",
    });
  });

  it("puts X-Trace-Id on every answer and honours a valid traceparent", async () => {
    const { call, mock } = frozenMock();
    const traced = await call("GET", "/orders", undefined, {
      traceparent: "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",
    });
    expect(traced.headers.get("x-trace-id")).toBe("4bf92f3577b34da6a3ce929d0e0e4736");
    const invalid = await call("GET", "/orders", undefined, { traceparent: "garbage" });
    expect(invalid.headers.get("x-trace-id")).toMatch(/^[0-9a-f]{32}$/);
    const health = await mock.handle(new Request(`${new URL(mock.baseUrl).origin}/healthz`));
    expect(health?.headers.get("x-trace-id")).toMatch(/^[0-9a-f]{32}$/);
    const ack = await call(
      "POST",
      "/ingest/orders",
      { orders: [order("A")] },
      { traceparent: "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01" },
    );
    expect(ack.body.trace_id).toBe("4bf92f3577b34da6a3ce929d0e0e4736");
  });

  it("serves the OpenAPI document and the health probes without a token", async () => {
    const { mock } = frozenMock();
    const origin = new URL(mock.baseUrl).origin;
    const doc = answered(await mock.handle(new Request(`${mock.baseUrl}/openapi.json`)));
    expect((await doc.json()).openapi).toBe("3.1.0");
    expect(await (await mock.handle(new Request(`${origin}/healthz`)))?.json()).toEqual({ status: "ok" });
    mock.controls.unavailable(1);
    expect((await mock.handle(new Request(`${origin}/readyz`)))?.status).toBe(503);
    expect(await (await mock.handle(new Request(`${origin}/readyz`)))?.json()).toEqual({ status: "ready" });
    const docs = await mock.handle(new Request(`${origin}/docs`));
    expect(docs?.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(await docs?.text()).toContain("POST /v2/ingest/orders");
    const post = await mock.handle(new Request(`${origin}/healthz`, { method: "POST" }));
    expect([post?.status, post?.headers.get("allow")]).toEqual([405, "GET"]);
  });

  it("answers every path of its origin like the server, or only its own with ownOrigin: false", async () => {
    const { mock } = frozenMock();
    const origin = new URL(mock.baseUrl).origin;
    const elsewhere = answered(await mock.handle(new Request(`${origin}/v1/orders`)));
    expect([elsewhere.status, (await elsewhere.json()).code]).toEqual([404, "not_found"]);
    // Other origins are never the mock's: left to msw's other handlers or the network.
    expect(await mock.handle(new Request("https://example.com/v2/orders"))).toBeUndefined();
    const shared = frozenMock({ ownOrigin: false }).mock;
    expect(await shared.handle(new Request(`${origin}/v1/orders`))).toBeUndefined();
  });

  it("accepts only tokens it made with acceptAnyToken: false", async () => {
    const { mock, call } = frozenMock({ acceptAnyToken: false });
    expect((await call("GET", "/orders")).status).toBe(200);
    const unknown = await mock.handle(
      new Request(`${mock.baseUrl}/orders`, { headers: { authorization: "Bearer oisr_unknown" } }),
    );
    expect(unknown?.status).toBe(401);
  });
});
