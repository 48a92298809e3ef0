import { describe, expect, it } from "vitest";
import {
  type RateDecision,
  rateDecision,
  rateLimitedProblem,
  rateLimitHeaders,
  type ScopeCount,
  scopesFor,
} from "./rate-limits.ts";
import { isRequestRetryCall, retryScopes } from "./request-retry.ts";
import { openapiDocument } from "./spec.ts";

describe("rate-limit scopes (docs/product.md §8)", () => {
  it.each([
    ["POST", "/ingest/orders", ["ingest"]],
    ["POST", "/ingest/inventory", ["ingest_inventory", "ingest"]],
    ["POST", "/ingest/returns/RMA-1/dispositions", ["ingest"]],
    ["GET", "/ingest/orders", []],
    ["GET", "/orders", ["orders_read"]],
    ["GET", "/orders/ord_1", ["orders_read"]],
    ["HEAD", "/orders", ["orders_read"]],
    ["GET", "/requests/abc", ["requests_read"]],
    ["GET", "/returns", ["returns_read"]],
    ["GET", "/inventory", ["returns_read"]],
    ["DELETE", "/webhook_subscriptions/whs_1", ["webhooks"]],
    ["PATCH", "/webhook_subscriptions/whs_1", ["webhooks"]],
    ["GET", "/events", ["events_read"]],
    ["GET", "/events/evt_1", ["events_read"]],
    ["POST", "/api_keys", ["api_keys"]],
    ["DELETE", "/api_keys/key_1", ["api_keys"]],
    ["GET", "/openapi.json", []],
    ["GET", "/", []],
  ])("%s %s counts toward %j", (method, path, scopes) => {
    expect(scopesFor(method, path)).toEqual(scopes);
  });

  it("agrees with every operation's x-rate-limit-scope in the spec", () => {
    let operations = 0;
    for (const [template, item] of Object.entries(openapiDocument.paths)) {
      const path = template.replaceAll(/\{[^}]+\}/g, "x");
      for (const [method, operation] of Object.entries(
        item as Record<string, { "x-rate-limit-scope"?: string[] }>,
      )) {
        const stated = operation["x-rate-limit-scope"];
        if (!Array.isArray(stated)) continue;
        operations++;
        // A retry is charged by its handler, to the scopes of the ingest call it repeats: at the
        // gate it counts toward none, and the spec states every scope it may be charged to.
        const scopes = isRequestRetryCall(method, path)
          ? [...new Set([...retryScopes("inventory"), ...retryScopes("orders")])]
          : scopesFor(method, path);
        if (isRequestRetryCall(method, path)) expect(scopesFor(method, path)).toEqual([]);
        expect([...scopes].sort(), `${method} ${template}`).toEqual([...stated].sort());
      }
    }
    expect(operations).toBeGreaterThan(20);
  });

  // Express routes these to the same handlers (case-insensitive, one trailing slash allowed).
  it.each([
    ["POST", "/ingest/inventory/", ["ingest_inventory", "ingest"]],
    ["POST", "/Ingest/Inventory", ["ingest_inventory", "ingest"]],
    ["post", "/INGEST/ORDERS", ["ingest"]],
    ["GET", "/ORDERS", ["orders_read"]],
    ["GET", "/Webhook_Subscriptions", ["webhooks"]],
    // Two trailing slashes reach no handler (404): counted as any other ingest path.
    ["POST", "/ingest/inventory//", ["ingest"]],
  ])("%s %s counts as its handler's path does: %j", (method, path, scopes) => {
    expect(scopesFor(method, path)).toEqual(scopes);
  });
});

const count = (scope: ScopeCount["scope"], limit: number, remaining: number, reset = 1060): ScopeCount => ({
  scope,
  limit,
  remaining,
  reset,
});

describe("rateDecision", () => {
  it("reports the scope with the fewest calls remaining", () => {
    expect(rateDecision(true, [count("ingest_inventory", 120, 19, 1050), count("ingest", 600, 589)])).toEqual(
      {
        allowed: true,
        scope: "ingest_inventory",
        limit: 120,
        remaining: 19,
        reset: 1050,
      },
    );
    expect(
      rateDecision(true, [count("ingest_inventory", 120, 5), count("ingest", 600, 2, 1030)]),
    ).toMatchObject({
      scope: "ingest",
      remaining: 2,
      reset: 1030,
    });
  });

  it("reports the first listed scope on a tie", () => {
    expect(rateDecision(true, [count("ingest_inventory", 120, 7), count("ingest", 600, 7)]).scope).toBe(
      "ingest_inventory",
    );
  });

  it("ranks every full scope as 0 however far over its limit, so the first full one is reported", () => {
    const over = rateDecision(false, [
      count("ingest_inventory", 120, 0, 1010),
      count("ingest", 600, -100, 1040),
    ]);
    expect(over).toMatchObject({ scope: "ingest_inventory", remaining: 0, retryAt: 1040 });
  });

  it("never reports fewer than 0 remaining, and 0 for a refused call", () => {
    expect(rateDecision(true, [count("orders_read", 3, -2)]).remaining).toBe(0);
    expect(rateDecision(false, [count("orders_read", 3, 2)]).remaining).toBe(0);
  });

  it("lets a refused call retry when every full scope has room, not only the reported one", () => {
    const decision = rateDecision(false, [
      count("ingest_inventory", 120, 0, 1010),
      count("ingest", 600, 0, 1040),
    ]);
    expect(decision).toMatchObject({ scope: "ingest_inventory", reset: 1010, retryAt: 1040 });
    const one = rateDecision(false, [count("ingest_inventory", 120, 3, 1010), count("ingest", 600, 0, 1040)]);
    expect(one).toMatchObject({ scope: "ingest", reset: 1040, retryAt: 1040 });
  });

  it("needs at least one scope", () => {
    expect(() => rateDecision(true, [])).toThrow(RangeError);
  });
});

describe("rateLimitHeaders and rateLimitedProblem", () => {
  const allowed: RateDecision = { allowed: true, scope: "ingest", limit: 600, remaining: 599, reset: 1060 };

  it("states the limit, what remains and the reset on an allowed call, with no wait", () => {
    expect(rateLimitHeaders(allowed, 1_000_000)).toEqual({
      headers: { "X-RateLimit-Limit": "600", "X-RateLimit-Remaining": "599", "X-RateLimit-Reset": "1060" },
    });
  });

  it("asks a refused call to wait the whole seconds until its retry time, at least 1", () => {
    const refused: RateDecision = { ...allowed, allowed: false, remaining: 0, retryAt: 1075 };
    expect(rateLimitHeaders(refused, 1_030_400)).toEqual({
      headers: { "X-RateLimit-Limit": "600", "X-RateLimit-Remaining": "0", "X-RateLimit-Reset": "1060" },
      retryAfterSeconds: 45,
    });
    expect(rateLimitHeaders({ ...refused, retryAt: undefined }, 1_030_400).retryAfterSeconds).toBe(30);
    expect(rateLimitHeaders(refused, 1_075_900).retryAfterSeconds).toBe(1);
    expect(rateLimitHeaders(refused, 2_000_000).retryAfterSeconds).toBe(1);
  });

  it("builds the 429 problem", () => {
    expect(rateLimitedProblem(600, 45)).toEqual({
      status: 429,
      code: "rate_limited",
      detail: "Rate limit of 600 calls per 60 s exceeded. Retry in 45 s.",
      headers: { "Retry-After": "45" },
    });
  });
});
