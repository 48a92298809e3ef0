// Which calls skip express-openapi-validator: the usual ingest call does, with the metadata the
// handlers read; every call the fast path is not sure of reaches the validator.
import type { NextFunction, Request, RequestHandler, Response } from "express";
import { describe, expect, it } from "vitest";
import { loadSpec } from "../spec.ts";
import { openApiFastPath } from "./openapi-fast-path.ts";

async function run(call: Partial<Request>): Promise<{ validated: boolean; req: Request }> {
  let validated = false;
  const validator: RequestHandler = (_req, _res, next) => {
    validated = true;
    next();
  };
  const middleware = openApiFastPath(loadSpec(), [validator]);
  const req = {
    method: "POST",
    path: "/ingest/orders",
    url: "/ingest/orders",
    body: { orders: [] },
    headers: { "content-type": "application/json" },
    ...call,
  } as Request;
  // The validator runs in a router, which may call on after a turn of the event loop.
  const err = await new Promise<unknown>((resolve) =>
    middleware(req, {} as Response, resolve as NextFunction),
  );
  expect(err).toBeUndefined();
  return { validated, req };
}

describe("openApiFastPath", () => {
  it("approves a plain ingest call itself, with the operation the handler checks", async () => {
    const { validated, req } = await run({});
    expect(validated).toBe(false);
    expect(req.openapi?.schema.operationId).toBe("ingestOrders");
    expect(req.openapi?.openApiRoute).toBe("/v2/ingest/orders");
    expect(req.openapi?.pathParams).toEqual({});
  });

  it.each([
    [
      "a valid idempotency key",
      { headers: { "content-type": "application/json", "idempotency-key": "k-1" } },
    ],
    ["a traceparent", { headers: { "content-type": "application/json", traceparent: "00-x" } }],
    ["a charset", { headers: { "content-type": "application/json; charset=utf-8" } }],
    ["the returns endpoint", { path: "/ingest/returns", url: "/ingest/returns" }],
  ])("approves %s itself", async (_name, call) => {
    expect((await run(call as Partial<Request>)).validated).toBe(false);
  });

  it.each([
    ["a GET", { method: "GET" }],
    ["a query string", { url: "/ingest/orders?x=1" }],
    ["no body", { body: undefined }],
    ["another content type", { headers: { "content-type": "text/plain" } }],
    ["no content type", { headers: {} }],
    [
      "a key too long",
      { headers: { "content-type": "application/json", "idempotency-key": "k".repeat(256) } },
    ],
    ["an empty key", { headers: { "content-type": "application/json", "idempotency-key": "" } }],
    ["a key with a tab", { headers: { "content-type": "application/json", "idempotency-key": "a\tb" } }],
    [
      "a traceparent too long",
      { headers: { "content-type": "application/json", traceparent: "x".repeat(513) } },
    ],
    [
      "a path with parameters",
      { path: "/ingest/returns/r/dispositions", url: "/ingest/returns/r/dispositions" },
    ],
    ["another path", { path: "/orders", url: "/orders" }],
  ])("leaves %s to the validator", async (_name, call) => {
    expect((await run(call as Partial<Request>)).validated).toBe(true);
  });
});
