import { describe, expect, it } from "vitest";
import { routeTemplates } from "./metrics-http.ts";
import { loadSpec } from "./spec.ts";

describe("routeTemplates", () => {
  const templates = routeTemplates(loadSpec());
  const label = (path: string) => templates.find((t) => t.pattern.test(path))?.label ?? "unmatched";

  it.each([
    ["/v2/orders", "/v2/orders"],
    ["/v2/orders/ord_01JP9YVEKTNDE3MZX9B154EWRG", "/v2/orders/{identifier}"],
    ["/v2/Orders/A-1001/", "/v2/orders/{identifier}"],
    ["/v2/ingest/returns/RMA-1/dispositions", "/v2/ingest/returns/{return_id}/dispositions"],
    ["/v2/webhook_subscriptions/whs_1/deliveries", "/v2/webhook_subscriptions/{subscription_id}/deliveries"],
    ["/v2/orders/a/b", "unmatched"],
    ["/v2/nothing", "unmatched"],
    ["/orders", "unmatched"],
  ])("labels %s as %s", (path, expected) => {
    expect(label(path)).toBe(expected);
  });

  it("covers every path of the spec under its base path", () => {
    expect(templates.map((t) => t.label).sort()).toEqual(
      Object.keys(loadSpec().paths)
        .map((p) => `/v2${p}`)
        .sort(),
    );
  });
});
