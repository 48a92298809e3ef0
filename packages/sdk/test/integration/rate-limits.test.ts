// Rate limits against the real server, with the ingest limit lowered to 3 calls per 60 s. The
// window is a minute, so nothing here waits for it: the tests check what the SDK does with the
// headers (errors, Retry-After, pacing) within the first second.

import { order } from "@oisr/contract/fixtures";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ClientOptions, RateLimitError } from "../../src/index.ts";
import { backends, startTestServer, type TestServer } from "./harness.ts";

const INGEST_LIMIT = 3;

interface Traffic {
  /** "send" when a request leaves, "<status>" when its response head arrives, in order. */
  events: string[];
  statuses(): number[];
}

/** A client of a fresh account (or of `token`) whose fetch records what went over the wire. */
async function recordingClient(server: TestServer, options: Partial<ClientOptions> = {}) {
  const traffic: Traffic = {
    events: [],
    statuses: () => traffic.events.filter((e) => e !== "send").map(Number),
  };
  const client = await server.newClient({
    ...options,
    fetch: async (request) => {
      traffic.events.push("send");
      const response = await fetch(request);
      traffic.events.push(String(response.status));
      return response;
    },
  });
  return { client, traffic };
}

const settled = <T>(promise: Promise<T>) => {
  const state = { done: false, result: undefined as unknown };
  promise.then(
    (v) => Object.assign(state, { done: true, result: v }),
    (e: unknown) => Object.assign(state, { done: true, result: e }),
  );
  return state;
};
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.each(backends)("rate limits ($name)", (backend) => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer(backend, { OISR_RATE_LIMITS: JSON.stringify({ ingest: INGEST_LIMIT }) });
  });
  afterAll(() => server?.close());

  it("with maxRetries 0, the call over the limit throws RateLimitError with retryAfterMs", async () => {
    const { client, traffic } = await recordingClient(server, { maxRetries: 0 });
    for (let i = 0; i < INGEST_LIMIT; i++) await client.orders.ingest([order()]);
    const err = await client.orders.ingest([order()]).catch((e: unknown) => e);

    expect(err).toBeInstanceOf(RateLimitError);
    const limited = err as RateLimitError;
    expect(limited).toMatchObject({ status: 429, code: "rate_limited" });
    expect(limited.retryAfterMs).toBeGreaterThan(0);
    expect(limited.retryAfterMs).toBeLessThanOrEqual(60_000);
    expect(limited.headers.get("x-ratelimit-remaining")).toBe("0");
    expect(traffic.statuses()).toEqual([202, 202, 202, 429]);
    // Other scopes have their own budget.
    await expect(client.orders.list()).resolves.toMatchObject({ data: expect.any(Array) });
  });

  it("retries a 429 only after Retry-After: one refused call, then it waits (until the caller aborts)", async () => {
    const { client, traffic } = await recordingClient(server); // default: 3 retries
    for (let i = 0; i < INGEST_LIMIT; i++) await client.orders.ingest([order()]);
    const signal = AbortSignal.timeout(1_000);
    const err = await client.orders.ingest([order()], { signal }).catch((e: unknown) => e);
    expect(err).toBe(signal.reason); // the caller's abort, not a RateLimitError: it was still waiting
    expect(traffic.statuses()).toEqual([202, 202, 202, 429]);
  });

  it("throttle: probes with one call, sends as many as X-RateLimit-Remaining allows, holds the rest", async () => {
    const { client, traffic } = await recordingClient(server, { throttle: true });
    const controller = new AbortController();
    const calls = Array.from({ length: INGEST_LIMIT + 1 }, () =>
      settled(client.orders.ingest([order()], { signal: controller.signal })),
    );
    while (traffic.statuses().length < INGEST_LIMIT) await sleep(10);
    await sleep(300); // long enough for a fourth call to go out if the throttle let it

    // Before any figure is known one call goes alone; its Remaining (2) releases two at once.
    expect(traffic.events).toEqual(["send", "202", "send", "send", "202", "202"]);
    expect(calls.filter((c) => c.done)).toHaveLength(INGEST_LIMIT);
    // The fourth waits for the window instead of earning a 429; reads are not held up meanwhile.
    await expect(client.orders.list({ limit: 1 })).resolves.toBeTruthy();
    controller.abort();
    await sleep(0);
    expect(calls[INGEST_LIMIT]?.result).toBe(controller.signal.reason);
    expect(traffic.statuses()).toEqual([202, 202, 202, 200]);
  });

  it("throttle: a 429 caused by another consumer stops the client's calls until the reset", async () => {
    const token = await server.newToken();
    const other = await server.newClient({ token, maxRetries: 0 });
    for (let i = 0; i < INGEST_LIMIT; i++) await other.orders.ingest([order()]);

    const { client, traffic } = await recordingClient(server, { token, throttle: true, maxRetries: 0 });
    await expect(client.orders.ingest([order()])).rejects.toBeInstanceOf(RateLimitError);
    const signal = AbortSignal.timeout(500);
    const err = await client.orders.ingest([order()], { signal }).catch((e: unknown) => e);
    expect(err).toBe(signal.reason);
    // The second call was never sent: the throttle learned from the 429's headers.
    expect(traffic.events).toEqual(["send", "429"]);
  });
});
