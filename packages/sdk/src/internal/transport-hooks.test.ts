// Hooks, logging and traceparent in the transport: what each attempt reports.
import { describe, expect, it, vi } from "vitest";
import { ConnectionError } from "../errors.ts";
import type { Hooks, LogLevel } from "../hooks.ts";
import { levelledLogger } from "./log.ts";
import { json, problem, type Scripted, scriptedFetch } from "./test-utils.ts";
import { createThrottle } from "./throttle.ts";
import { createTransport, type TransportConfig } from "./transport.ts";

const BASE = "https://api.test/v2";
const TRACEPARENT = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";
const ack = () =>
  json({ message: "Accepted", request_id: "r1", trace_id: "t" }, 202, { "x-trace-id": "4bf92f35" });
const ingest = (init: RequestInit = {}) =>
  new Request(`${BASE}/ingest/orders`, {
    method: "POST",
    body: JSON.stringify({ orders: [{ external_id: "SECRET-BODY" }] }),
    ...init,
    headers: { "content-type": "application/json", authorization: "Bearer oisr_secret", ...init.headers },
  });

function setup(script: Scripted[], config: Partial<TransportConfig> = {}) {
  const server = scriptedFetch(script);
  const sleeps: number[] = [];
  let clock = 1_000;
  const transport = createTransport({
    fetch: async (request) => {
      clock += 25; // every attempt takes 25 ms
      return server.fetch(request);
    },
    basePath: "/v2",
    timeoutMs: 0,
    random: () => 0,
    now: () => clock,
    sleep: async (ms) => {
      sleeps.push(ms);
    },
    uuid: () => "uuid-1",
    ...config,
  });
  return { transport, calls: server.calls, sleeps };
}

function recorder() {
  const events: string[] = [];
  const hooks: Hooks = {
    onRequest: ({ request, attempt }) => void events.push(`request ${attempt} ${request.method}`),
    onResponse: ({ response, attempt, durationMs }) =>
      void events.push(`response ${attempt} ${response.status} ${durationMs}ms`),
    onRetry: ({ attempt, delayMs, status, error }) =>
      void events.push(`retry ${attempt} ${delayMs}ms ${status ?? error?.name}`),
  };
  return { events, hooks };
}

describe("hooks", () => {
  it("see every attempt in order: request, response, retry", async () => {
    const { events, hooks } = recorder();
    const { transport } = setup(
      [problem(503, "service_unavailable", { "retry-after": "1" }), new TypeError("fetch failed"), ack()],
      { hooks },
    );
    expect((await transport(ingest())).status).toBe(202);
    expect(events).toEqual([
      "request 1 POST",
      "response 1 503 25ms",
      "retry 1 1000ms 503",
      "request 2 POST",
      "retry 2 1000ms ConnectionError",
      "request 3 POST",
      "response 3 202 25ms",
    ]);
  });

  it("give onRetry the attempt's error when no response came", async () => {
    const retries: unknown[] = [];
    const { transport } = setup([new TypeError("fetch failed"), ack()], {
      hooks: { onRetry: ({ error }) => void retries.push(error) },
    });
    await transport(ingest());
    expect(retries).toHaveLength(1);
    expect(retries[0]).toBeInstanceOf(ConnectionError);
    expect((retries[0] as ConnectionError).cause).toEqual(new TypeError("fetch failed"));
  });

  it("let onRequest send another Request, with the SDK's headers in place, on every attempt", async () => {
    const seen: Headers[] = [];
    const { transport, calls } = setup([problem(500, "internal_error"), ack()], {
      hooks: {
        onRequest: async ({ request, attempt }) => {
          seen.push(new Headers(request.headers));
          const changed = new Request(request);
          changed.headers.set("x-attempt", String(attempt));
          return changed;
        },
      },
    });
    await transport(ingest());
    expect(seen.map((h) => h.get("idempotency-key"))).toEqual(["uuid-1", "uuid-1"]);
    expect(calls.map((c) => c.headers.get("x-attempt"))).toEqual(["1", "2"]);
    // The body survives the hook's copy on every attempt.
    expect(calls.map((c) => JSON.parse(c.body).orders[0].external_id)).toEqual([
      "SECRET-BODY",
      "SECRET-BODY",
    ]);
  });

  it("let onRequest change the request in place and return nothing", async () => {
    const { transport, calls } = setup([ack()], {
      hooks: { onRequest: ({ request }) => void request.headers.set("x-client", "erp/1") },
    });
    await transport(ingest());
    expect(calls[0]?.headers.get("x-client")).toBe("erp/1");
  });

  it("fail the call with a hook's error, without retrying", async () => {
    const boom = new Error("hook failed");
    const onRequest = setup([ack()], {
      hooks: {
        onRequest: () => {
          throw boom;
        },
      },
    });
    await expect(onRequest.transport(ingest())).rejects.toBe(boom);
    expect(onRequest.calls).toHaveLength(0);

    const onResponse = setup([problem(503, "service_unavailable"), ack()], {
      hooks: {
        onResponse: async () => {
          throw boom;
        },
      },
    });
    await expect(onResponse.transport(ingest())).rejects.toBe(boom);
    expect(onResponse.calls).toHaveLength(1);

    const onRetry = setup([problem(503, "service_unavailable"), ack()], {
      hooks: {
        onRetry: () => {
          throw boom;
        },
      },
    });
    await expect(onRetry.transport(ingest())).rejects.toBe(boom);
    expect(onRetry.calls).toHaveLength(1);
  });

  it("give back the throttle slot when onRequest throws", async () => {
    // Before the first response of a scope the throttle lets one call through at a time: a
    // slot kept by the failed call would block the next one for ever.
    let fail = true;
    const { transport, calls } = setup([ack()], {
      throttle: createThrottle(),
      hooks: {
        onRequest: () => {
          if (fail) {
            fail = false;
            throw new Error("once");
          }
        },
      },
    });
    await expect(transport(ingest())).rejects.toThrow("once");
    const next = await Promise.race([
      transport(ingest()).then((r) => r.status),
      new Promise((resolve) => setTimeout(() => resolve("blocked"), 500)),
    ]);
    expect(next).toBe(202);
    expect(calls).toHaveLength(1);
  });
});

describe("logging", () => {
  function logged(level: LogLevel) {
    const lines: unknown[][] = [];
    const logger = {
      error: (...a: unknown[]) => void lines.push(["error", ...a]),
      warn: (...a: unknown[]) => void lines.push(["warn", ...a]),
      info: (...a: unknown[]) => void lines.push(["info", ...a]),
      debug: (...a: unknown[]) => void lines.push(["debug", ...a]),
    };
    return { lines, log: levelledLogger(logger, level) };
  }

  it("at info: one line per attempt with status, duration and trace id, and the retry delay", async () => {
    const { lines, log } = logged("info");
    const { transport } = setup([problem(429, "rate_limited", { "retry-after": "2" }), ack()], { log });
    await transport(ingest());
    expect(lines).toEqual([
      [
        "info",
        "oisr: POST /ingest/orders → 429 in 25 ms (attempt 1); retrying in 2000 ms",
        {
          method: "POST",
          path: "/ingest/orders",
          attempt: 1,
          status: 429,
          error: undefined,
          durationMs: 25,
          traceId: undefined,
          retryInMs: 2000,
        },
      ],
      [
        "info",
        "oisr: POST /ingest/orders → 202 in 25 ms (attempt 2, trace 4bf92f35)",
        expect.objectContaining({ attempt: 2, status: 202, traceId: "4bf92f35", retryInMs: undefined }),
      ],
    ]);
  });

  it("at info: a failed attempt names its error", async () => {
    const { lines, log } = logged("info");
    const { transport } = setup([new TypeError("fetch failed")], { log, retry: { maxRetries: 0 } });
    await expect(transport(ingest())).rejects.toBeInstanceOf(ConnectionError);
    expect(lines).toEqual([
      [
        "info",
        "oisr: POST /ingest/orders → ConnectionError in 25 ms (attempt 1)",
        expect.objectContaining({ error: "POST /ingest/orders failed: fetch failed (attempt 1)" }),
      ],
    ]);
  });

  it("at debug: also a line before each attempt; never the token or the body", async () => {
    const { lines, log } = logged("debug");
    const { transport } = setup([problem(500, "internal_error"), ack()], { log });
    await transport(ingest());
    expect(lines.map((l) => `${l[0]} ${l[1]}`)).toEqual([
      "debug oisr: sending POST /ingest/orders (attempt 1)",
      "info oisr: POST /ingest/orders → 500 in 25 ms (attempt 1); retrying in 500 ms",
      "debug oisr: sending POST /ingest/orders (attempt 2)",
      "info oisr: POST /ingest/orders → 202 in 25 ms (attempt 2, trace 4bf92f35)",
    ]);
    const text = JSON.stringify(lines);
    expect(text).not.toContain("oisr_secret");
    expect(text).not.toContain("SECRET-BODY");
  });

  it("at warn (the default): nothing in normal operation, retries included", async () => {
    const { lines, log } = logged("warn");
    const { transport } = setup([problem(503, "service_unavailable"), ack()], { log });
    await transport(ingest());
    expect(lines).toEqual([]);
  });
});

describe("traceparent", () => {
  it("is asked once per call and sent on every attempt", async () => {
    const traceparent = vi.fn(() => TRACEPARENT);
    const { transport, calls } = setup([problem(503, "service_unavailable"), ack()], { traceparent });
    await transport(ingest());
    expect(traceparent).toHaveBeenCalledTimes(1);
    expect(calls.map((c) => c.headers.get("traceparent"))).toEqual([TRACEPARENT, TRACEPARENT]);
  });

  it("is not sent when there is none", async () => {
    const { transport, calls } = setup([ack()], { traceparent: () => undefined });
    await transport(ingest());
    expect(calls[0]?.headers.has("traceparent")).toBe(false);
  });

  it("leaves a traceparent the caller set alone", async () => {
    const traceparent = vi.fn(() => TRACEPARENT);
    const mine = "00-11111111111111111111111111111111-2222222222222222-00";
    const { transport, calls } = setup([ack()], { traceparent });
    await transport(ingest({ headers: { traceparent: mine } }));
    expect(calls[0]?.headers.get("traceparent")).toBe(mine);
    expect(traceparent).not.toHaveBeenCalled();
  });
});
