import { describe, expect, it } from "vitest";
import { grants, permissionFor } from "./api-keys.ts";
import { scopesFor } from "./rate-limits.ts";
import {
  bulkRetryCharge,
  bulkRetrySelection,
  isRequestRetryCall,
  isRetryable,
  RETRY_BULK_MAX,
  requestNotRetryable,
  retryEndpoint,
  retryScopes,
} from "./request-retry.ts";

const ID = "0195C0BA-79B7-7A23-A88A-A13755FFD8CF";
const NOW = Date.parse("2026-03-31T12:00:00Z");

describe("request retries (decision 014)", () => {
  it.each([
    ["pending", false],
    ["processing", false],
    ["succeeded", false],
    ["failed", true],
    ["dead", true],
  ] as const)("a %s request retryable: %s", (status, retryable) => {
    expect(isRetryable(status)).toBe(retryable);
  });

  it("refuses the others with 409 request_not_retryable naming the status", () => {
    const problem = requestNotRetryable(ID, "succeeded");
    expect([problem.status, problem.code]).toEqual([409, "request_not_retryable"]);
    expect(problem.message).toContain("is succeeded");
  });

  it.each([
    ["POST", `/requests/${ID}/retry`, true],
    ["POST", "/requests/retry", true],
    ["post", "/Requests/Retry/", true],
    ["GET", "/requests/retry", false],
    ["POST", `/requests/${ID}`, false],
    ["POST", `/requests/${ID}/retry/x`, false],
  ])("%s %s is a retry call: %s", (method, path, retry) => {
    expect(isRequestRetryCall(method, path)).toBe(retry);
  });

  it("needs ingest:write and is counted by its handler, not at the gate", () => {
    for (const path of [`/requests/${ID}/retry`, "/requests/retry"]) {
      expect(permissionFor("POST", path)).toBe("ingest:write");
      expect(grants(["requests:read"], "ingest:write")).toBe(false);
      expect(scopesFor("POST", path)).toEqual([]);
    }
    expect(permissionFor("GET", `/requests/${ID}`)).toBe("requests:read");
  });

  it("charges a retry as the ingest call it repeats", () => {
    expect(retryScopes("inventory")).toEqual(scopesFor("POST", "/ingest/inventory"));
    expect(retryScopes("orders")).toEqual(scopesFor("POST", "/ingest/orders"));
    expect(retryScopes("dispositions")).toEqual(["ingest"]);
  });

  it("charges a bulk call once per request, inventory also to ingest_inventory, at least once", () => {
    expect(bulkRetryCharge([])).toEqual([{ scope: "ingest", count: 1 }]);
    expect(bulkRetryCharge(["orders", "inventory", "inventory", "returns"])).toEqual([
      { scope: "ingest_inventory", count: 2 },
      { scope: "ingest", count: 4 },
    ]);
  });

  it("scopes a single retry's idempotency key to its request, whatever the id's case", () => {
    expect(retryEndpoint(ID)).toBe(`POST /requests/${ID.toLowerCase()}/retry`);
  });

  it("cuts the bulk window at the retention period and bounds the limit", () => {
    const selection = bulkRetrySelection(
      { status: "dead", accepted_since: "2020-01-01T00:00:00Z", limit: 500 },
      NOW,
      30,
    );
    expect(selection.sinceMs).toBe(NOW - 30 * 86_400_000);
    expect(selection.untilMs).toBeGreaterThan(NOW);
    expect(selection.limit).toBe(RETRY_BULK_MAX);
    const bounded = bulkRetrySelection(
      {
        status: "failed",
        accepted_since: "2026-03-30T00:00:00Z",
        accepted_until: "2026-03-31T00:00:00Z",
        kind: "orders",
        limit: 7,
      },
      NOW,
      30,
    );
    expect(bounded).toEqual({
      status: "failed",
      kind: "orders",
      sinceMs: Date.parse("2026-03-30T00:00:00Z"),
      untilMs: Date.parse("2026-03-31T00:00:00Z"),
      limit: 7,
    });
  });
});
