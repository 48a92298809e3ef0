import { describe, expect, it } from "vitest";
import { scopesFor } from "./http-contract.ts";

describe("rate-limit scopes (CONTRACT section 8)", () => {
  it.each([
    ["POST", "/ingest/orders", ["ingest"]],
    ["POST", "/ingest/inventory", ["ingest", "ingest_inventory"]],
    ["POST", "/ingest/returns/RMA-1/dispositions", ["ingest"]],
    ["GET", "/orders", ["orders_read"]],
    ["GET", "/orders/ord_1", ["orders_read"]],
    ["GET", "/requests/abc", ["requests_read"]],
    ["GET", "/returns", ["returns_read"]],
    ["GET", "/inventory", ["returns_read"]],
    ["DELETE", "/webhook_subscriptions/whs_1", ["webhooks"]],
  ])("%s %s counts toward %j", (method, path, scopes) => {
    expect(scopesFor(method, path)).toEqual(scopes);
  });
});
