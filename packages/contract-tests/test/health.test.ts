// docs/product.md §1: the unauthenticated probes and the served spec.
import { describe, expect, it } from "vitest";
import { send } from "../src/client.ts";
import { expectProblem, useSystem } from "../src/harness.ts";
import { targets } from "../src/targets.ts";

/** Decision 001: every operation of the contract, by method, path and operationId. */
const OPERATIONS: [string, string, string][] = [
  ["post", "/ingest/orders", "ingestOrders"],
  ["post", "/ingest/inventory", "ingestInventory"],
  ["post", "/ingest/shipments", "ingestShipments"],
  ["post", "/ingest/returns", "ingestReturns"],
  ["post", "/ingest/returns/{return_id}/dispositions", "ingestDispositions"],
  ["get", "/orders", "listOrders"],
  ["get", "/orders/{identifier}", "getOrder"],
  ["get", "/returns", "listReturns"],
  ["get", "/returns/{return_id}", "getReturn"],
  ["get", "/requests", "listRequests"],
  ["get", "/requests/{request_id}", "getRequest"],
  ["get", "/inventory", "listInventory"],
  ["post", "/webhook_subscriptions", "createWebhookSubscription"],
  ["get", "/webhook_subscriptions", "listWebhookSubscriptions"],
  ["get", "/webhook_subscriptions/{subscription_id}", "getWebhookSubscription"],
  ["patch", "/webhook_subscriptions/{subscription_id}", "updateWebhookSubscription"],
  ["delete", "/webhook_subscriptions/{subscription_id}", "deleteWebhookSubscription"],
  ["post", "/webhook_subscriptions/{subscription_id}/rotate_secret", "rotateWebhookSecret"],
  ["post", "/webhook_subscriptions/{subscription_id}/test", "testWebhookSubscription"],
  ["get", "/webhook_subscriptions/{subscription_id}/deliveries", "listWebhookDeliveries"],
  ["get", "/openapi.json", "getOpenApiDocument"],
  ["get", "/healthz", "getHealth"],
  ["get", "/readyz", "getReadiness"],
];

describe.each(targets)("health and the served spec — $name", (target) => {
  // Each test looks only at what it stored: it runs on the accounts of `--token` too.
  const h = useSystem(target, {}, { sharedAccounts: true });

  it("GET /healthz answers 200 {status: ok} without authentication, with X-Trace-Id", async () => {
    const res = await send(h.system, "GET", `${h.system.origin}/healthz`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    expect(res.body).toEqual({ status: "ok" });
    expect(res.headers.get("x-trace-id")).toMatch(/^[0-9a-f]{32}$/);
    expect(res.headers.get("x-ratelimit-limit")).toBeNull();
  });

  it("GET /readyz answers 200 {status: ready} without authentication when the database is up", async () => {
    const res = await send(h.system, "GET", `${h.system.origin}/readyz`);
    expect(res.status).toBe(200);
    // A system with a read replica reports it too (decision 021).
    expect(res.body).toEqual(
      h.system.replicaUrl
        ? { status: "ready", read_replica: { status: "reachable", lag_seconds: expect.any(Number) } }
        : { status: "ready" },
    );
  });

  it("GET /v2/openapi.json serves the OpenAPI 3.1 document without authentication", async () => {
    const res = await send(h.system, "GET", "/v2/openapi.json");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    expect(res.body.openapi).toMatch(/^3\.1\.\d+$/);
    expect(res.body.info).toMatchObject({
      title: expect.any(String),
      version: expect.stringMatching(/^2\./),
    });
    const found = OPERATIONS.map(([method, path]) => [
      method,
      path,
      res.body.paths?.[path]?.[method]?.operationId,
    ]);
    expect(found).toEqual(OPERATIONS);
    // The document is the contract these tests hold the system to: its problem codes match decision 001.
    expect(res.body.components.schemas.ProblemCode.enum).toEqual([
      "invalid_json",
      "validation_failed",
      "invalid_cursor",
      "unauthorized",
      "not_found",
      "method_not_allowed",
      "payload_too_large",
      "unsupported_media_type",
      "request_header_fields_too_large",
      "idempotency_key_reused",
      "subscription_disabled",
      "request_not_retryable",
      "insufficient_permission",
      "api_key_expired",
      "api_key_inactive",
      "last_admin_key",
      "rate_limited",
      "internal_error",
      "service_unavailable",
    ]);
  });

  it("GET /docs renders the API reference as HTML without authentication", async () => {
    const res = await send(h.system, "GET", `${h.system.origin}/docs`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/html/);
  });

  it.each(["/healthz", "/readyz"])("POST %s is 405 with Allow: GET", async (path) => {
    const res = await send(h.system, "POST", `${h.system.origin}${path}`);
    expectProblem(res, 405, "method_not_allowed");
    expect(res.headers.get("allow")).toMatch(/\bGET\b/);
  });

  it("an unknown path outside /v2 is a 404 problem", async () => {
    expectProblem(await send(h.system, "GET", `${h.system.origin}/nope`), 404, "not_found");
  });
});
