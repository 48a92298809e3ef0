// Scenarios a test arms through the controls: dead and failed requests, outages, slow answers.
import { unauthorized } from "@oisr/contract";
import { describe, expect, it } from "vitest";
import { client, frozenMock, order, tick } from "./support.ts";

describe("failNext", () => {
  it("'dead' retries inside processing, ends dead after every attempt, and applies nothing", async () => {
    const { mock, call } = frozenMock({ retryDelayMs: 1000 });
    mock.controls.failNext("dead");
    const ack = await call("POST", "/ingest/orders", { orders: [order("A")] });
    await tick();
    const record = async () => (await call("GET", `/requests/${ack.body.request_id}`)).body;
    expect(await record()).toMatchObject({ status: "processing", attempts: 1, error: null });
    for (const wait of [1000, 2000, 4000, 8000]) {
      mock.controls.clock.advance(wait);
      await tick();
    }
    expect(await record()).toMatchObject({
      status: "dead",
      attempts: 5,
      result: null,
      errors: [],
      error: { code: "processing_failed" },
    });
    expect((await call("GET", "/orders/A")).status).toBe(404);

    // Resubmitting a dead request is safe: the scenario was used up.
    const again = await call("POST", "/ingest/orders", { orders: [order("A")] });
    await tick();
    expect((await call("GET", `/requests/${again.body.request_id}`)).body.status).toBe("succeeded");
  });

  it("'dead' honours maxAttempts and blocks the account's later requests until it is buried", async () => {
    const { mock, call } = frozenMock({ maxAttempts: 2, retryDelayMs: 10_000 });
    mock.controls.failNext("dead");
    const doomed = await call("POST", "/ingest/orders", { orders: [order("A")] });
    const next = await call("POST", "/ingest/orders", { orders: [order("B")] });
    await tick();
    expect((await call("GET", `/requests/${next.body.request_id}`)).body.status).toBe("pending");
    mock.controls.clock.advance(10_000);
    await tick();
    expect((await call("GET", `/requests/${doomed.body.request_id}`)).body).toMatchObject({
      status: "dead",
      attempts: 2,
    });
    expect((await call("GET", `/requests/${next.body.request_id}`)).body.status).toBe("succeeded");
  });

  it("'failed' records the given errors; it can be scoped to one account and kind", async () => {
    const { mock, call } = frozenMock();
    const other = mock.controls.createAccount("other");
    const errors = [{ pointer: "/orders/0/lines/1", code: "line_removal_forbidden" as const, message: "no" }];
    mock.controls.failNext("failed", { token: other.token, kind: "orders", errors });
    const mine = await call("POST", "/ingest/orders", { orders: [order("A")] });
    const theirs = await client(mock, other.token)("POST", "/ingest/orders", { orders: [order("A")] });
    await tick();
    expect((await call("GET", `/requests/${mine.body.request_id}`)).body.status).toBe("succeeded");
    const record = (await client(mock, other.token)("GET", `/requests/${theirs.body.request_id}`)).body;
    expect(record).toMatchObject({ status: "failed", errors });
  });
});

describe("outages and latency", () => {
  it("unavailable(n) answers the next n calls 503 with Retry-After, then recovers", async () => {
    const { mock, call } = frozenMock();
    mock.controls.unavailable(2, { retryAfterSeconds: 7 });
    for (let i = 0; i < 2; i++) {
      const res = await call("GET", "/orders");
      expect(res.status).toBe(503);
      expect(res.headers.get("retry-after")).toBe("7");
      expect(res.body).toMatchObject({ code: "service_unavailable", status: 503 });
    }
    expect((await call("GET", "/orders")).status).toBe(200);
  });

  it("delayResponses slows every answer down", async () => {
    const { mock, call } = frozenMock();
    mock.controls.delayResponses(60);
    const started = performance.now();
    await call("GET", "/orders");
    expect(performance.now() - started).toBeGreaterThanOrEqual(55);
    mock.controls.delayResponses(0);
  });
});

describe("accounts", () => {
  it("keeps accounts apart and answers 401 for revoked or foreign-looking tokens", async () => {
    const { mock, call, token } = frozenMock();
    await call("POST", "/ingest/orders", { orders: [order("A")] });
    await tick();
    const stranger = client(mock, "oisr_someone_else");
    expect((await stranger("GET", "/orders/A")).status).toBe(404);
    expect((await client(mock, "sk_live_x")("GET", "/orders")).status).toBe(401);
    mock.controls.revokeToken(token);
    const revoked = await call("GET", "/orders");
    expect(revoked.status).toBe(401);
    expect(revoked.headers.get("www-authenticate")).toBe('Bearer realm="oisr"');
    expect(revoked.body.detail).toBe(unauthorized(true).message);
  });

  it("reset forgets all data; tokens it made stay valid, with empty accounts", async () => {
    const { mock, call } = frozenMock({ acceptAnyToken: false });
    await call("POST", "/ingest/orders", { orders: [order("A")] });
    await tick();
    mock.controls.reset();
    expect((await call("GET", "/orders")).body.data).toEqual([]);
    expect(mock.controls.requests()).toEqual([]);
  });
});
