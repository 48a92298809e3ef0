// What a new user meets first (issue 29): where a body stops being JSON, where the API's paths
// are, which tokens the mock takes, and controls that refuse values they do not know.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MOCK_TOKEN_DETAIL } from "../src/core.ts";
import { type StandaloneServer, startMockServer } from "../src/node/index.ts";
import { answered, frozenMock } from "./support.ts";

const J = { "content-type": "application/json" };

describe("answers that say how to get it right", () => {
  it("invalid_json names the line and column where the body broke", async () => {
    const { call } = frozenMock();
    const res = await call("POST", "/ingest/orders", '{\n  "orders": [\n    }\n', J);
    expect([res.status, res.body.code, res.body.detail]).toEqual([
      400,
      "invalid_json",
      "The request body is not valid JSON: Unexpected token } at line 3, column 5.",
    ]);
  });

  it("a path outside /v2 says API paths start with /v2", async () => {
    const { mock, token } = frozenMock();
    const origin = new URL(mock.baseUrl).origin;
    const res = answered(
      await mock.handle(new Request(`${origin}/orders`, { headers: { authorization: `Bearer ${token}` } })),
    );
    expect([res.status, (await res.json()).detail]).toEqual([
      404,
      "No such path. API paths start with /v2 (e.g. /v2/orders).",
    ]);
  });

  it("a token without oisr_ is told which tokens the mock accepts", async () => {
    const { mock } = frozenMock();
    const res = answered(
      await mock.handle(
        new Request(`${mock.baseUrl}/orders`, { headers: { authorization: "Bearer abc123" } }),
      ),
    );
    expect(res.status).toBe(401);
    expect(res.headers.get("www-authenticate")).toBe('Bearer realm="oisr"');
    expect(await res.json()).toMatchObject({ code: "unauthorized", detail: MOCK_TOKEN_DETAIL });
    expect(MOCK_TOKEN_DETAIL).toBe("The mock accepts any token that starts with oisr_ (e.g. oisr_test).");
  });

  it("with acceptAnyToken: false, an unknown token gets the server's text", async () => {
    const { mock } = frozenMock({ acceptAnyToken: false });
    const res = answered(
      await mock.handle(
        new Request(`${mock.baseUrl}/orders`, { headers: { authorization: "Bearer abc123" } }),
      ),
    );
    expect((await res.json()).detail).toMatch(/^The bearer token is unknown or revoked\./);
  });
});

describe("controls refuse values they do not take", () => {
  it.each([
    [
      "a misspelt failNext outcome",
      (c: ReturnType<typeof frozenMock>["mock"]["controls"]) => c.failNext("deadd" as "dead"),
      'failNext outcome must be one of "dead", "failed" (got "deadd")',
    ],
    [
      "a failNext kind that is no request kind",
      (c: ReturnType<typeof frozenMock>["mock"]["controls"]) =>
        c.failNext("failed", { kind: "order" as "orders" }),
      'failNext kind must be one of "orders", "inventory", "shipments", "returns", "dispositions" (got "order")',
    ],
    [
      "a failNext count of 0",
      (c: ReturnType<typeof frozenMock>["mock"]["controls"]) => c.failNext("dead", { count: 0 }),
      "failNext count must be a whole number ≥ 1 (got 0)",
    ],
    [
      "an unknown rate-limit scope",
      (c: ReturnType<typeof frozenMock>["mock"]["controls"]) => c.exhaustRateLimit("ingests" as "ingest"),
      /^exhaustRateLimit scope must be one of "ingest", "ingest_inventory", .* \(got "ingests"\)$/,
    ],
    [
      "a negative delay",
      (c: ReturnType<typeof frozenMock>["mock"]["controls"]) => c.delayResponses(-1),
      "delayResponses ms must be a number ≥ 0 (got -1)",
    ],
    [
      "an unknown request status filter",
      (c: ReturnType<typeof frozenMock>["mock"]["controls"]) => c.requests({ status: "done" }),
      /^requests status must be one of "pending", .* \(got "done"\)$/,
    ],
    [
      "a misspelt seed key",
      (c: ReturnType<typeof frozenMock>["mock"]["controls"]) => c.seed({ order: [] } as never),
      /^seed data key must be one of "orders", .* \(got "order"\)$/,
    ],
  ])("%s", (_name, act, message) => {
    const { mock } = frozenMock();
    expect(() => act(mock.controls)).toThrow(message);
  });

  it("arms nothing when a value is refused", async () => {
    const { mock, call } = frozenMock();
    expect(() => mock.controls.failNext("deadd" as "dead")).toThrow(TypeError);
    expect(mock.controls.failNext("failed", { kind: "orders", count: 2 })).toBeUndefined();
    expect((await call("GET", "/orders")).status).toBe(200);
  });
});

describe("/__mock/ controls over HTTP", () => {
  let server: StandaloneServer;
  beforeAll(async () => {
    server = await startMockServer({ port: 0 });
  });
  afterAll(() => server.close());

  const post = (name: string, body: string) =>
    fetch(`${server.origin}/__mock/${name}`, { method: "POST", headers: J, body });

  it("answers a misspelt outcome 400 problem+json listing the allowed values", async () => {
    const res = await post("fail-next", JSON.stringify({ outcome: "deadd" }));
    expect(res.status).toBe(400);
    expect(res.headers.get("content-type")).toMatch(/^application\/problem\+json/);
    expect(await res.json()).toMatchObject({
      status: 400,
      detail: 'failNext outcome must be one of "dead", "failed" (got "deadd")',
    });
  });

  it.each([
    [
      "fail-next",
      JSON.stringify({ outcome: "dead", count: "2" }),
      "failNext count must be a whole number ≥ 1",
    ],
    ["exhaust-rate-limit", JSON.stringify({}), "exhaustRateLimit scope must be one of"],
    ["delay-responses", JSON.stringify({ ms: "100" }), "delayResponses ms must be a number ≥ 0"],
    ["unavailable", JSON.stringify({ calls: 1.5 }), "unavailable calls must be a whole number ≥ 0"],
    ["tokens/revoke", JSON.stringify({}), "revokeToken token must be a string"],
    ["fail-next", "{oops", "is not valid JSON"],
    ["fail-next", "[]", "must be a JSON object"],
  ])("refuses POST /__mock/%s %s", async (name, body, detail) => {
    const res = await post(name, body);
    expect(res.status).toBe(400);
    expect((await res.json()).detail).toContain(detail);
  });

  it("still takes valid calls, and an empty body as {}", async () => {
    expect((await post("fail-next", JSON.stringify({ outcome: "failed", kind: "orders" }))).status).toBe(204);
    expect((await fetch(`${server.origin}/__mock/fail-next`, { method: "POST" })).status).toBe(204);
    expect((await post("reset", "")).status).toBe(204);
  });

  it("answers an unknown control 404 problem+json", async () => {
    const res = await post("fail-nxt", "{}");
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ detail: "no control POST /__mock/fail-nxt" });
  });
});
