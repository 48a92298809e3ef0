// docs/product.md §5 and §7: `limit` is decimal digits on every list (Ajv alone reads `0x10` as 16,
// `1e1` as 10, `+5` as 5), and a request line or headers over the HTTP server's limit is a
// problem+json 431 like every other error, not a bare status (issue 25, item 6).
import { describe, expect, it } from "vitest";
import { send } from "../src/client.ts";
import { type Client, expectProblem, useSystem } from "../src/harness.ts";
import { targets } from "../src/targets.ts";

/** Every list of the contract; `deliveries` needs a subscription of the account. */
const LISTS: [string, (c: Client) => Promise<string>][] = [
  ["/orders", async () => "/orders"],
  ["/returns", async () => "/returns"],
  ["/inventory", async () => "/inventory"],
  ["/requests", async () => "/requests"],
  ["/events", async () => "/events"],
  ["/webhook_subscriptions", async () => "/webhook_subscriptions"],
  [
    "/webhook_subscriptions/{id}/deliveries",
    async (c) => {
      const sub = await c.post("/webhook_subscriptions", {
        url: "http://127.0.0.1:9/oisr",
        events: ["return.created"],
      });
      expect(sub.status, sub.text).toBe(201);
      return `/webhook_subscriptions/${sub.body.id}/deliveries`;
    },
  ],
  ["/api_keys", async () => "/api_keys"],
];

// As sent on the wire: %2B is "+" ("+" itself reads as a space), %20 a space, %09 a tab.
const NOT_DECIMAL = [
  "0x10",
  "0X10",
  "1e1",
  "1E1",
  "0b11",
  "0o7",
  "5.0",
  "5.",
  "%2B5",
  "%205",
  "5%20",
  "%095",
  "-5",
  "Infinity",
  "1e3",
];

describe.each(targets)("integer query parameters and request size — $name", (target) => {
  // Each test looks only at what it stored: it runs on the accounts of `--token` too.
  const h = useSystem(target, {}, { sharedAccounts: true });

  describe.each(LISTS)("GET %s", (_name, pathOf) => {
    it("refuses every limit not written in decimal digits: 400 validation_failed at /query/limit, nothing else", async () => {
      const c = await h.account();
      const path = await pathOf(c);
      for (const limit of NOT_DECIMAL) {
        const res = await c.get(`${path}?limit=${limit}`);
        const problem = expectProblem(res, 400, "validation_failed");
        expect(problem.errors, `limit=${limit}`).toEqual([
          { pointer: "/query/limit", code: expect.any(String), message: expect.any(String) },
        ]);
      }
    });

    it("takes limit=1, 200, 50 and 007 (leading zeros are decimal: 7)", async () => {
      const c = await h.account();
      const path = await pathOf(c);
      for (const [limit, n] of [
        ["1", 1],
        ["200", 200],
        ["50", 50],
        ["007", 7],
      ] as const) {
        const res = await c.get(`${path}?limit=${limit}`);
        expect(res.status, `limit=${limit}: ${res.text}`).toBe(200);
        expect(res.body.data.length).toBeLessThanOrEqual(n);
        expect(typeof res.body.next_cursor).toBe("string");
      }
    });
  });

  it("limit=1 really pages by one", async () => {
    const c = await h.account();
    // Every account holds its first key; a second one makes two.
    const created = await c.post("/api_keys", { name: "second", permissions: ["orders:read"] });
    expect(created.status, created.text).toBe(201);
    const first = await c.get("/api_keys?limit=01");
    expect(first.status).toBe(200);
    expect(first.body.data).toHaveLength(1);
    expect(first.body.has_more).toBe(true);
  });

  // The in-process msw mock has no socket and so no header limit: it answers such a call itself.
  const inProcess = target.name.includes("in-process");

  it.skipIf(inProcess)(
    "a 100 kB query string is 431 request_header_fields_too_large, problem+json with a trace id",
    async () => {
      const c = await h.account();
      const res = await c.get(`/orders?cursor=${"a".repeat(100_000)}`);
      const problem = expectProblem(res, 431, "request_header_fields_too_large");
      expect(problem.title).toBe("Request header fields too large");
      // The connection was closed; the next call is served as usual.
      expect((await c.get("/orders")).status).toBe(200);
    },
  );

  it.skipIf(inProcess)("a 100 kB header is 431 request_header_fields_too_large too", async () => {
    const res = await send(h.system, "GET", `${h.system.origin}/healthz`, {
      headers: { "x-filler": "a".repeat(100_000) },
    });
    expectProblem(res, 431, "request_header_fields_too_large");
  });

  it.runIf(inProcess)(
    "a 100 kB query string has no socket to overflow on the in-process mock (msw): the API answers it, a 400 problem",
    async () => {
      const c = await h.account();
      const res = await c.get(`/orders?cursor=${"a".repeat(100_000)}`);
      const problem = expectProblem(res, 400, "validation_failed");
      expect(problem.errors).toEqual([expect.objectContaining({ pointer: "/query/cursor" })]);
    },
  );
});
