import { afterEach, describe, expect, it, vi } from "vitest";
import { type RateLimitScope, relativePath, scopesFor } from "./scopes.ts";
import { createThrottle } from "./throttle.ts";
import { createTransport } from "./transport.ts";

const BASE = "https://api.test/v2";
const WINDOW_MS = 60_000;

/**
 * A fake API with the contract's rate limiter: a rolling 60 s window per scope, refused calls not
 * counted, headers of the scope with the fewest remaining, random latency both ways (so
 * responses arrive out of order).
 */
function rateLimitedServer(opts: {
  limits: Partial<Record<RateLimitScope, number>>;
  resetRounding: "ceil" | "floor";
  dateHeader: boolean;
  seed?: number;
}) {
  const counted = new Map<RateLimitScope, number[]>();
  let seed = opts.seed ?? 42;
  const rand = () => {
    seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
    return seed / 2 ** 31;
  };
  const latency = () => new Promise((r) => setTimeout(r, 5 + Math.floor(rand() * 200)));
  const stats = { accepted: 0, refused: 0, maxInFlightAtServer: 0 };
  const round = opts.resetRounding === "ceil" ? Math.ceil : Math.floor;

  async function fetch(request: Request): Promise<Response> {
    await latency();
    const t = Date.now();
    const scopes = scopesFor(request.method, relativePath(request.url, "/v2")).filter(
      (s) => opts.limits[s] !== undefined,
    );
    const views = scopes.map((scope) => {
      const log = counted.get(scope) ?? [];
      while (log.length > 0 && (log[0] as number) <= t - WINDOW_MS) log.shift();
      counted.set(scope, log);
      return { scope, log, limit: opts.limits[scope] as number };
    });
    const allowed = views.every((v) => v.log.length < v.limit);
    if (allowed) for (const v of views) v.log.push(t);
    const tightest = views.reduce<(typeof views)[number] | undefined>(
      (min, v) => (min === undefined || v.limit - v.log.length < min.limit - min.log.length ? v : min),
      undefined,
    );
    const headers: Record<string, string> = { "content-type": "application/json" };
    if (opts.dateHeader) headers.date = new Date(t).toUTCString();
    let status = 200;
    if (tightest) {
      const oldest = tightest.log[0] ?? t;
      headers["x-ratelimit-limit"] = String(tightest.limit);
      headers["x-ratelimit-remaining"] = String(Math.max(0, tightest.limit - tightest.log.length));
      headers["x-ratelimit-reset"] = String(round((oldest + WINDOW_MS) / 1000));
      if (!allowed) {
        status = 429;
        headers["retry-after"] = String(Math.max(1, Math.ceil((oldest + WINDOW_MS - t) / 1000)));
      }
    }
    if (status === 429) stats.refused++;
    else stats.accepted++;
    await latency();
    return new Response(JSON.stringify({ ok: status !== 429 }), { status, headers });
  }
  return { fetch, stats };
}

async function settle<T>(promises: Promise<T>[]): Promise<T[]> {
  let done = false;
  const all = Promise.all(promises).finally(() => {
    done = true;
  });
  while (!done) await vi.advanceTimersByTimeAsync(250);
  return all;
}

afterEach(() => {
  vi.useRealTimers();
});

describe("throttle", () => {
  it.each([
    ["reset rounded up, with Date header", "ceil", true],
    ["reset rounded down, with Date header", "floor", true],
    ["reset rounded down, no Date header", "floor", false],
  ] as const)(
    "spreads a burst of 1000 ingests over the window without a single 429 (%s)",
    async (_name, resetRounding, dateHeader) => {
      vi.useFakeTimers({ now: Date.UTC(2025, 0, 1, 12, 0, 0, 300) });
      const server = rateLimitedServer({ limits: { ingest: 600 }, resetRounding, dateHeader });
      const transport = createTransport({
        fetch: server.fetch,
        basePath: "/v2",
        timeoutMs: 0,
        throttle: createThrottle(),
      });
      const started = Date.now();
      const calls = Array.from({ length: 1000 }, (_, i) =>
        transport(new Request(`${BASE}/ingest/orders`, { method: "POST", body: `{"orders":[{"n":${i}}]}` })),
      );
      const responses = await settle(calls);
      expect(server.stats.refused).toBe(0);
      expect(responses.every((r) => r.status === 200)).toBe(true);
      expect(server.stats.accepted).toBe(1000);
      // 600 in the first window, the rest as soon as the first ones leave it (not minutes later).
      expect(Date.now() - started).toBeGreaterThan(WINDOW_MS);
      expect(Date.now() - started).toBeLessThan(WINDOW_MS + 15_000);
    },
  );

  it("paces inventory calls by the stricter scope while order ingests share the wider one", async () => {
    vi.useFakeTimers({ now: Date.UTC(2025, 0, 1, 12, 0, 0) });
    const server = rateLimitedServer({
      limits: { ingest: 100, ingest_inventory: 20 },
      resetRounding: "ceil",
      dateHeader: true,
    });
    const transport = createTransport({
      fetch: server.fetch,
      basePath: "/v2",
      timeoutMs: 0,
      throttle: createThrottle(),
    });
    const calls = Array.from({ length: 150 }, (_, i) =>
      transport(
        new Request(`${BASE}/ingest/${i % 3 === 0 ? "inventory" : "orders"}`, { method: "POST", body: "{}" }),
      ),
    );
    await settle(calls);
    expect(server.stats.refused).toBe(0);
    expect(server.stats.accepted).toBe(150);
  });

  it("keeps scopes apart: reads are not held back by an exhausted ingest scope", async () => {
    vi.useFakeTimers({ now: Date.UTC(2025, 0, 1, 12, 0, 0) });
    const server = rateLimitedServer({
      limits: { ingest: 5, orders_read: 100 },
      resetRounding: "ceil",
      dateHeader: true,
    });
    const transport = createTransport({
      fetch: server.fetch,
      basePath: "/v2",
      timeoutMs: 0,
      throttle: createThrottle(),
    });
    const ingests = Array.from({ length: 10 }, () =>
      transport(new Request(`${BASE}/ingest/orders`, { method: "POST", body: "{}" })),
    );
    await vi.advanceTimersByTimeAsync(5_000);
    const read = transport(new Request(`${BASE}/orders`));
    let readDone = false;
    void read.then(() => {
      readDone = true;
    });
    await vi.advanceTimersByTimeAsync(1_000);
    expect(readDone).toBe(true);
    await settle(ingests);
    expect(server.stats.refused).toBe(0);
  });

  it("releases a waiting call when its signal aborts", async () => {
    vi.useFakeTimers({ now: Date.UTC(2025, 0, 1, 12, 0, 0) });
    const throttle = createThrottle();
    const first = await throttle.acquire(["webhooks"]);
    const controller = new AbortController();
    const waiting = throttle.acquire(["webhooks"], controller.signal);
    controller.abort();
    await expect(waiting).rejects.toMatchObject({ name: "AbortError" });
    throttle.complete(
      first,
      new Response(null, { headers: { "x-ratelimit-remaining": "10", "x-ratelimit-reset": "1735732860" } }),
    );
    expect(throttle.snapshot().webhooks).toMatchObject({ known: true, budget: 10, inFlight: 0 });
  });

  it("stops after a 429 caused by another consumer and waits for Retry-After before the next call", async () => {
    vi.useFakeTimers({ now: Date.UTC(2025, 0, 1, 12, 0, 0) });
    const throttle = createThrottle({ resetMarginMs: 0 });
    const t = await throttle.acquire(["orders_read"]);
    throttle.complete(
      t,
      new Response(null, { status: 429, headers: { "retry-after": "3", "x-ratelimit-remaining": "0" } }),
    );
    let granted = false;
    void throttle.acquire(["orders_read"]).then(() => {
      granted = true;
    });
    await vi.advanceTimersByTimeAsync(2_900);
    expect(granted).toBe(false);
    await vi.advanceTimersByTimeAsync(200);
    expect(granted).toBe(true);
  });
});

// The scope table is the contract's (tested there against the spec); the SDK's part is the path.
describe("scopes of a call's URL", () => {
  it.each([
    ["POST", "https://api.test/v2/ingest/inventory", "/v2", ["ingest_inventory", "ingest"]],
    ["GET", "https://api.test/v2/orders/ord_1?limit=5", "/v2", ["orders_read"]],
    ["GET", "https://api.test/base/v2/requests/0193", "/base/v2", ["requests_read"]],
    // A raw call outside the base path: the part after its /v2 segment.
    ["DELETE", "https://other.test/v2/webhook_subscriptions/whs_1", "/api/v2", ["webhooks"]],
    ["GET", "https://api.test/v2/openapi.json", "/v2", []],
  ])("%s %s (base %s) → %j", (method, url, base, scopes) => {
    expect(scopesFor(method, relativePath(url, base))).toEqual(scopes);
  });
});
