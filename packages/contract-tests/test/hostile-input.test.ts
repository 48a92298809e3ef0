// docs/product.md §7 against hostile and unusual input (issue 14): bounded error lists, arrays over their
// maxItems refused before their items are read, real calendar dates, U+0000 outside bodies, deep
// nesting, and what ordinary clients send (lower-case `bearer`, unencoded `:` in a query).
import { describe, expect, it } from "vitest";
import { order } from "../src/fixtures.ts";
import { expectProblem, useSystem } from "../src/harness.ts";
import { targets } from "../src/targets.ts";

describe.each(targets)("hostile input — $name", (target) => {
  // Each test looks only at what it stored: it runs on the accounts of `--token` too.
  const h = useSystem(target, {}, { sharedAccounts: true });

  it("an array over its maxItems is one problem; its items are not validated", async () => {
    const c = await h.account();
    const problem = expectProblem(
      await c.post("/ingest/returns", { returns: Array.from({ length: 100_000 }, () => ({})) }),
      400,
      "validation_failed",
    );
    expect(problem.errors).toEqual([
      { pointer: "/returns", code: "maxItems", message: "must NOT have more than 1000 items" },
    ]);
    expect(problem.errors_total).toBeUndefined();
  });

  it("lists at most 100 errors, in document order, and counts the rest in errors_total", async () => {
    const c = await h.account();
    // Each empty order misses its 7 required members: 20 orders, 140 problems.
    const problem = expectProblem(
      await c.post("/ingest/orders", { orders: Array.from({ length: 20 }, () => ({})) }),
      400,
      "validation_failed",
    );
    expect(problem.errors).toHaveLength(100);
    expect(problem.errors_total).toBe(140);
    expect(problem.errors[0].pointer).toBe("/orders/0/external_id");
    expect(problem.errors[99].pointer).toMatch(/^\/orders\/14\//);
    expect(problem.detail).toContain("140 problems");
  });

  it("stops counting at 1000 problems and says so", async () => {
    const c = await h.account();
    const lines = Array.from({ length: 500 }, () => ({}));
    const problem = expectProblem(
      await c.post("/ingest/orders", { orders: Array.from({ length: 1000 }, () => ({ lines })) }),
      400,
      "validation_failed",
    );
    expect(problem.errors).toHaveLength(100);
    expect(problem.errors_total).toBe(1000);
    expect(problem.detail).toContain("1000 or more");
  });

  it.each([
    ["February 30", "2025-02-30T00:00:00Z"],
    ["month 13", "2025-13-01T00:00:00Z"],
    ["hour 24", "2025-01-01T24:00:00Z"],
  ])("a date-time on %s is refused in a body and in a query", async (_name, value) => {
    const c = await h.account();
    const problem = expectProblem(
      await c.post("/ingest/orders", { orders: [order({ placed_at: value })] }),
      400,
      "validation_failed",
    );
    expect(problem.errors).toEqual([
      expect.objectContaining({ pointer: "/orders/0/placed_at", code: "format" }),
    ]);
    const query = expectProblem(
      await c.get(`/orders?updated_since=${encodeURIComponent(value)}`),
      400,
      "validation_failed",
    );
    expect(query.errors).toEqual([expect.objectContaining({ pointer: "/query/updated_since" })]);
  });

  it("a query value with unencoded colons, as typed into curl, is accepted", async () => {
    const c = await h.account();
    const res = await c.get("/orders?updated_since=2025-01-01T00:00:00Z");
    expect(res.status, res.text).toBe(200);
  });

  it("the Bearer scheme is case-insensitive", async () => {
    const c = await h.account();
    for (const header of [`bearer ${c.token}`, `BEARER ${c.token}`, `Bearer  ${c.token}`]) {
      expect((await c.get("/orders", { authorization: header })).status, header).toBe(200);
    }
  });

  it.each([
    ["GET", "/orders/a%00b"],
    ["GET", "/returns/a%00b"],
    ["GET", "/webhook_subscriptions/whs_a%00b"],
    ["GET", "/requests/a%00b"],
    ["POST", "/ingest/returns/a%00b/dispositions"],
  ])("U+0000 in a path id is an unknown resource: %s %s", async (method, path) => {
    const c = await h.account();
    const body =
      method === "POST"
        ? {
            dispositions: [
              { line_id: "1", quantity: 1, outcome: "restock", decided_at: "2025-03-01T00:00:00Z" },
            ],
          }
        : undefined;
    const res = await c.request(method, path, body ? { body } : {});
    expect([400, 404], res.text).toContain(res.status);
    expectProblem(res, res.status);
  });

  it.each(["/orders?source=a%00b", "/returns?order_id=a%00b", "/inventory?location_id=a%00b"])(
    "U+0000 in a query value is 400: %s",
    async (path) => {
      const c = await h.account();
      const problem = expectProblem(await c.get(path), 400, "validation_failed");
      expect(problem.errors[0].code).toBe("unsupported_character");
    },
  );

  it("a lone surrogate in a webhook subscription field is refused, not stored as U+FFFD", async () => {
    const c = await h.account();
    const res = await c.post(
      "/webhook_subscriptions",
      `{"url":"https://example.com/hook","events":["return.created"],"description":"a\\ud800b"}`,
      { "content-type": "application/json" },
    );
    const problem = expectProblem(res, 400, "validation_failed");
    expect(problem.errors).toEqual([
      expect.objectContaining({ pointer: "/description", code: "unsupported_character" }),
    ]);
  });

  it("a body nested deeper than 32 levels is refused before it is parsed", async () => {
    const c = await h.account();
    const depth = 200_000;
    const text = `{"orders":${"[".repeat(depth)}${"]".repeat(depth)}}`;
    expectProblem(
      await c.post("/ingest/orders", text, { "content-type": "application/json" }),
      400,
      "invalid_json",
    );
  });
});
