import { describe, expect, it } from "vitest";
import { ConflictError, NotFoundError, PermissionError, RateLimitError } from "../errors.ts";
import { ack, client, REQUEST_ID } from "../internal/client-fixtures.ts";
import { json, problem } from "../internal/test-utils.ts";
import type { RetryRequestsResult } from "../types.ts";

const ORIGINAL = "0195c0ba-79b7-7a23-a88a-a13755ffd8cf";
const pathOf = (url: string | undefined) => new URL(url ?? "").pathname;
const bodyOf = (body: string | undefined) => (body ? JSON.parse(body) : undefined);

describe("requests.retry", () => {
  it("POSTs to the request's retry path with a generated Idempotency-Key and resolves to the 202 acknowledgment", async () => {
    const { client: c, calls } = client({ "POST /requests/*/retry": ack });
    const { data, response } = await c.requests.retry(ORIGINAL).withResponse();
    expect(data.request_id).toBe(REQUEST_ID);
    expect(response.headers.get("location")).toBe(`/v2/requests/${REQUEST_ID}`);
    expect(calls).toHaveLength(1);
    expect(pathOf(calls[0]?.url)).toBe(`/v2/requests/${ORIGINAL}/retry`);
    expect(calls[0]?.body).toBe("");
    expect(calls[0]?.headers.get("idempotency-key")).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("reuses one key on every attempt, so a retried call sends the request once", async () => {
    const { client: c, calls } = client({
      "POST /requests/*/retry": [problem(503, "service_unavailable", { "retry-after": "0" }), ack],
    });
    await c.requests.retry(ORIGINAL);
    expect(calls).toHaveLength(2);
    const keys = calls.map((call) => call.headers.get("idempotency-key"));
    expect(keys[0]).toBeTruthy();
    expect(keys[1]).toBe(keys[0]);
  });

  it("sends the caller's Idempotency-Key", async () => {
    const { client: c, calls } = client({ "POST /requests/*/retry": ack });
    await c.requests.retry(ORIGINAL, { idempotencyKey: "console-retry-1" });
    expect(calls[0]?.headers.get("idempotency-key")).toBe("console-retry-1");
  });

  it.each([
    [409, "request_not_retryable", ConflictError],
    [404, "not_found", NotFoundError],
    [403, "insufficient_permission", PermissionError],
    [429, "rate_limited", RateLimitError],
  ] as const)("a %i %s is a %s", async (status, code, type) => {
    const { client: c } = client(
      { "POST /requests/*/retry": problem(status, code, { "retry-after": "1" }) },
      {
        maxRetries: 0,
      },
    );
    const error = await c.requests.retry(ORIGINAL).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(type);
    expect((error as ConflictError).code).toBe(code);
  });
});

describe("requests.retryMany", () => {
  const result: RetryRequestsResult = {
    count: 1,
    retries: [{ request_id: REQUEST_ID, retry_of: ORIGINAL }],
    has_more: false,
  };

  it("POSTs the selection, limit 100 unless given, with a generated Idempotency-Key", async () => {
    const { client: c, calls } = client({ "POST /requests/retry": json(result, 202) });
    const data = await c.requests.retryMany({ status: "dead", accepted_since: "2025-03-23T00:00:00Z" });
    expect(data).toEqual(result);
    expect(pathOf(calls[0]?.url)).toBe("/v2/requests/retry");
    expect(bodyOf(calls[0]?.body)).toEqual({
      status: "dead",
      accepted_since: "2025-03-23T00:00:00Z",
      limit: 100,
    });
    expect(calls[0]?.headers.get("idempotency-key")).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("passes kind, accepted_until, limit and the caller's key as given", async () => {
    const { client: c, calls } = client({ "POST /requests/retry": json(result, 202) });
    const params = {
      status: "failed",
      kind: "shipments",
      accepted_since: "2025-03-23T00:00:00Z",
      accepted_until: "2025-03-24T00:00:00Z",
      limit: 5,
    } as const;
    await c.requests.retryMany(params, { idempotencyKey: "bulk-1" });
    expect(bodyOf(calls[0]?.body)).toEqual(params);
    expect(calls[0]?.headers.get("idempotency-key")).toBe("bulk-1");
  });
});

describe("requests.body", () => {
  it("GETs the request's body path and resolves to the submitted body", async () => {
    const submitted = { shipments: [{ external_id: "SHP-1", order_id: "ORD-9", carrier: "ups" }] };
    const { client: c, calls } = client({ "GET /requests/*/body": json(submitted) });
    expect(await c.requests.body(ORIGINAL)).toEqual(submitted);
    expect(pathOf(calls[0]?.url)).toBe(`/v2/requests/${ORIGINAL}/body`);
  });

  it("a 404 (unknown, another account's, past retention) is a NotFoundError", async () => {
    const { client: c } = client({ "GET /requests/*/body": problem(404, "not_found") });
    await expect(c.requests.body(ORIGINAL)).rejects.toBeInstanceOf(NotFoundError);
  });
});
