import { afterEach, describe, expect, it, vi } from "vitest";
import { createClient } from "./client.ts";
import {
  ApiError,
  AuthenticationError,
  ConflictError,
  NotFoundError,
  RateLimitError,
  ValidationError,
} from "./errors.ts";
import {
  ack,
  BASE,
  client,
  disposition,
  order,
  REQUEST_ID,
  ret,
  shipment,
  snapshot,
} from "./internal/client-fixtures.ts";
import { problem } from "./internal/test-utils.ts";

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
    const { client: c, calls } = client({
      "POST /ingest/returns/*/dispositions": [
        problem(503, "service_unavailable", { "retry-after": "0" }),
        ack,
      ],
    });
    await c.returns.ingestDispositions("RMA 7/1", [disposition], { idempotencyKey: "dsp-batch-7" });
    expect(calls.map((x) => x.headers.get("idempotency-key"))).toEqual(["dsp-batch-7", "dsp-batch-7"]);
    expect(calls[0]?.url).toBe(`${BASE}/ingest/returns/RMA%207%2F1/dispositions`);
  });

  it.each([
    [
      "inventory",
      (c: ReturnType<typeof createClient>) => c.inventory.ingest([snapshot]),
      "/ingest/inventory",
      "snapshots",
    ],
    [
      "shipments",
      (c: ReturnType<typeof createClient>) => c.shipments.ingest([shipment]),
      "/ingest/shipments",
      "shipments",
    ],
    [
      "returns",
      (c: ReturnType<typeof createClient>) => c.returns.ingest([ret]),
      "/ingest/returns",
      "returns",
    ],
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
    const { client: c } = client(
      { "POST /ingest/orders": problem(status, code, { "retry-after": "7" }) },
      { maxRetries: 0 },
    );
    const err = await c.orders.ingest([order]).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ErrorClass);
    expect(err).toMatchObject({ status, code, traceId: "0af7651916cd43dd8448eb211c80319c" });
    expect((err as ApiError).problem.status).toBe(status);
    expect((err as Error).message).toContain(code);
  });

  it("exposes field errors of a ValidationError and the wait of a RateLimitError", async () => {
    const { client: c } = client(
      {
        "POST /ingest/orders": problem(
          400,
          "validation_failed",
          {},
          { errors: [{ pointer: "/orders/0/currency", code: "enum", message: "bad" }] },
        ),
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
      {
        "GET /orders/*": new Response("<html>Bad gateway</html>", {
          status: 502,
          statusText: "Bad Gateway",
          headers: { "x-trace-id": "abc" },
        }),
      },
      { maxRetries: 0 },
    );
    const err = (await c.orders.get("A-1").catch((e: unknown) => e)) as ApiError;
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ status: 502, code: undefined, traceId: "abc" });
    expect(err.problem).toMatchObject({ title: "Bad Gateway", status: 502 });
  });
});
