import { afterEach, describe, expect, it, vi } from "vitest";
import { ConnectionError, TimeoutError } from "../errors.ts";
import { json, problem, type Scripted, scriptedFetch } from "./test-utils.ts";
import { createTransport, randomUuid, type TransportConfig } from "./transport.ts";

const BASE = "https://api.test/v2";
const ack = () => json({ message: "accepted", request_id: "0193", trace_id: "t" }, 202);

function setup(script: Scripted[], config: Partial<TransportConfig> = {}) {
  const server = scriptedFetch(script);
  const sleeps: number[] = [];
  let n = 0;
  const transport = createTransport({
    fetch: server.fetch,
    basePath: "/v2",
    timeoutMs: 0,
    random: () => 0,
    sleep: async (ms) => {
      sleeps.push(ms);
    },
    uuid: () => `uuid-${++n}`,
    ...config,
  });
  return { transport, calls: server.calls, sleeps };
}

const post = (path: string, body: unknown, init: RequestInit = {}) =>
  new Request(`${BASE}${path}`, {
    method: "POST",
    body: JSON.stringify(body),
    headers: { "content-type": "application/json" },
    ...init,
  });

afterEach(() => {
  vi.useRealTimers();
});

describe("idempotency keys", () => {
  it("generates one key per ingest call and reuses it, with the same body, on every retry", async () => {
    const { transport, calls } = setup([
      problem(503, "service_unavailable"),
      new TypeError("fetch failed"),
      ack(),
    ]);
    const res = await transport(post("/ingest/orders", { orders: [{ external_id: "A-1" }] }));
    expect(res.status).toBe(202);
    expect(calls).toHaveLength(3);
    expect(calls.map((c) => c.headers.get("idempotency-key"))).toEqual(["uuid-1", "uuid-1", "uuid-1"]);
    expect(new Set(calls.map((c) => c.body))).toEqual(new Set(['{"orders":[{"external_id":"A-1"}]}']));
  });

  it("gives each logical call its own key", async () => {
    const { transport, calls } = setup([ack()]);
    await transport(post("/ingest/orders", { orders: [] }));
    await transport(post("/ingest/returns/ret_1/dispositions", { dispositions: [] }));
    expect(calls.map((c) => c.headers.get("idempotency-key"))).toEqual(["uuid-1", "uuid-2"]);
  });

  it("keeps a caller-provided key", async () => {
    const { transport, calls } = setup([problem(500, "internal_error"), ack()]);
    await transport(post("/ingest/inventory", { snapshots: [] }, { headers: { "Idempotency-Key": "mine" } }));
    expect(calls.map((c) => c.headers.get("idempotency-key"))).toEqual(["mine", "mine"]);
  });

  it.each([
    ["GET", "/orders"],
    ["GET", "/requests/0193"],
    ["POST", "/webhook_subscriptions"],
    ["POST", "/webhook_subscriptions/whs_1/rotate_secret"],
  ])("sends no key on %s %s", async (method, path) => {
    const { transport, calls } = setup([json({})]);
    await transport(new Request(`${BASE}${path}`, { method }));
    expect(calls[0]?.headers.has("idempotency-key")).toBe(false);
  });
});

describe("retries", () => {
  it("waits for Retry-After on 429, then succeeds", async () => {
    const { transport, calls, sleeps } = setup([
      problem(429, "rate_limited", { "retry-after": "2", "x-ratelimit-remaining": "0" }),
      ack(),
    ]);
    const res = await transport(post("/ingest/orders", { orders: [] }));
    expect(res.status).toBe(202);
    expect(calls).toHaveLength(2);
    expect(sleeps).toEqual([2_000]);
  });

  it("backs off exponentially on 5xx and returns the last response when retries run out", async () => {
    const { transport, calls, sleeps } = setup([problem(500, "internal_error")]);
    const res = await transport(new Request(`${BASE}/orders`));
    expect(res.status).toBe(500);
    expect(calls).toHaveLength(4);
    expect(sleeps).toEqual([500, 1_000, 2_000]);
  });

  it("honours a per-call maxRetries", async () => {
    const { transport, calls } = setup([problem(502, "bad_gateway")]);
    await transport(new Request(`${BASE}/orders`), { maxRetries: 0 });
    expect(calls).toHaveLength(1);
  });

  it("does not retry a non-idempotent POST after a 500 (it may have been applied)", async () => {
    const { transport, calls } = setup([problem(500, "internal_error"), json({}, 201)]);
    const res = await transport(post("/webhook_subscriptions", { url: "https://x.test" }));
    expect(res.status).toBe(500);
    expect(calls).toHaveLength(1);
  });

  it("throws ConnectionError with the cause after the last network failure", async () => {
    const { transport, calls } = setup([new TypeError("fetch failed")]);
    const err = await transport(new Request(`${BASE}/orders`)).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConnectionError);
    expect((err as ConnectionError).cause).toBeInstanceOf(TypeError);
    expect(calls).toHaveLength(4);
  });

  it("does not retry 4xx", async () => {
    const { transport, calls } = setup([problem(400, "validation_failed")]);
    expect((await transport(post("/ingest/orders", {}))).status).toBe(400);
    expect(calls).toHaveLength(1);
  });
});

describe("timeouts and abort", () => {
  const hang = (request: Request) =>
    new Promise<Response>((_resolve, reject) => {
      request.signal.addEventListener("abort", () => reject(request.signal.reason), { once: true });
    });

  it("times out each attempt, retries, then throws TimeoutError", async () => {
    vi.useFakeTimers();
    const { transport, calls } = setup([hang], { timeoutMs: 1_000, retry: { maxRetries: 1 } });
    const p = transport(new Request(`${BASE}/orders`)).catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(2_100);
    const err = await p;
    expect(err).toBeInstanceOf(TimeoutError);
    expect((err as TimeoutError).timeoutMs).toBe(1_000);
    expect(calls).toHaveLength(2);
  });

  it("lets a per-call timeout override the client's", async () => {
    vi.useFakeTimers();
    const { transport } = setup([hang], { timeoutMs: 60_000, retry: { maxRetries: 0 } });
    const p = transport(new Request(`${BASE}/orders`), { timeoutMs: 50 }).catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(60);
    expect(await p).toBeInstanceOf(TimeoutError);
  });

  it("rejects with the caller's abort reason at once and does not retry", async () => {
    const { transport, calls } = setup([hang], { timeoutMs: 60_000 });
    const controller = new AbortController();
    const p = transport(new Request(`${BASE}/orders`, { signal: controller.signal }));
    await vi.waitFor(() => expect(calls).toHaveLength(1));
    controller.abort();
    await expect(p).rejects.toMatchObject({ name: "AbortError" });
    expect(calls).toHaveLength(1);
  });

  it("stops waiting between retries when the caller aborts", async () => {
    vi.useFakeTimers();
    const server = scriptedFetch([problem(503, "service_unavailable", { "retry-after": "30" })]);
    const transport = createTransport({ fetch: server.fetch, basePath: "/v2", timeoutMs: 0 });
    const controller = new AbortController();
    const p = transport(new Request(`${BASE}/orders`, { signal: controller.signal })).catch(
      (e: unknown) => e,
    );
    await vi.advanceTimersByTimeAsync(1_000);
    controller.abort(new Error("shutting down"));
    expect(await p).toEqual(new Error("shutting down"));
    expect(server.calls).toHaveLength(1);
  });
});

describe("randomUuid", () => {
  it("makes v4 UUIDs also where crypto.randomUUID is missing (browsers outside secure contexts)", () => {
    // Shadow the prototype's method with an own property, as an insecure browser context lacks it.
    Object.defineProperty(globalThis.crypto, "randomUUID", { value: undefined, configurable: true });
    try {
      expect(globalThis.crypto.randomUUID).toBeUndefined();
      const ids = new Set(Array.from({ length: 100 }, randomUuid));
      expect(ids.size).toBe(100);
      for (const id of ids)
        expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    } finally {
      delete (globalThis.crypto as { randomUUID?: unknown }).randomUUID;
    }
    expect(typeof globalThis.crypto.randomUUID).toBe("function");
  });
});
