// docs/product.md §6, receiver backpressure: a `429` or `503` with `Retry-After` (seconds or an HTTP date)
// delays every delivery to that subscription by at least that long, at most an hour, and the
// deliveries log shows it (`retry_after_seconds`, `next_attempt_at`); deliveries to one
// subscription never run more than `OISR_WEBHOOK_SUBSCRIPTION_CONCURRENCY` at once.
import { afterEach, describe, expect, it } from "vitest";
import type { Json } from "../src/client.ts";
import { order, returnOf } from "../src/fixtures.ts";
import { type Client, succeeded, useSystem } from "../src/harness.ts";
import { sleep, waitFor } from "../src/poll.ts";
import { targets } from "../src/targets.ts";
import { type Answer, type Receiver, startReceiver } from "../src/webhook-receiver.ts";

/** Retries after 100 ms by the schedule: any wait of seconds is the receiver's. */
const SCHEDULE = "100ms,100ms,100ms";
const CONCURRENCY = 2;
const HOUR_MS = 3_600_000;

describe.each(targets)("receiver backpressure — $name", (target) => {
  const h = useSystem(target, {
    OISR_WEBHOOK_RETRY_SCHEDULE: SCHEDULE,
    OISR_WEBHOOK_SUBSCRIPTION_CONCURRENCY: String(CONCURRENCY),
  });
  const receivers: Receiver[] = [];
  afterEach(async () => {
    await Promise.all(receivers.splice(0).map((r) => r.close()));
  });

  async function receiver(respond: Receiver["respond"]): Promise<Receiver> {
    const r = await startReceiver(respond);
    receivers.push(r);
    return r;
  }

  async function subscribe(c: Client, url: string): Promise<string> {
    const res = await c.post("/webhook_subscriptions", { url, events: ["return.created"] });
    expect(res.status, res.text).toBe(201);
    return res.body.id;
  }

  /** `count` orders and a return of each: `count` return.created events. */
  async function returns(c: Client, count: number): Promise<void> {
    const orders = Array.from({ length: count }, () => order());
    succeeded(await c.ingestAndWait("/ingest/orders", { orders }));
    succeeded(
      await c.ingestAndWait("/ingest/returns", { returns: orders.map((o) => returnOf(o.external_id)) }),
    );
  }

  async function deliveries(c: Client, id: string): Promise<Json[]> {
    const res = await c.get(`/webhook_subscriptions/${id}/deliveries`);
    expect(res.status, res.text).toBe(200);
    return res.body.data;
  }

  /** The first attempt, answered with `first()`, and how long the subscription then waited. */
  async function slowedDown(first: () => Answer, attempts = 3) {
    const c = await h.account();
    const r = await receiver((_req, i) => (i === 0 ? first() : 200));
    const id = await subscribe(c, r.url);
    await returns(c, 1);
    await waitFor(async () => (r.received[0]?.answered ? true : undefined), "the first attempt answered", {
      timeoutMs: 20_000,
    });
    // A second event while the subscription is paused: it waits as well.
    await returns(c, 1);
    await waitFor(
      async () => (r.received.length >= attempts ? true : undefined),
      "the attempts after the pause",
      {
        timeoutMs: 20_000,
      },
    );
    const [head, ...rest] = r.received;
    const waited = Math.min(...rest.map((x) => x.receivedAt)) - (head?.receivedAt ?? 0);
    const log = await deliveries(c, id);
    const failed = log.find((d) => d.status === "failed");
    return { waited, failed, log };
  }

  it("a 429 with Retry-After: 2 delays the subscription's next attempts by 2 s; the log shows it", async () => {
    const { waited, failed } = await slowedDown(() => ({ status: 429, headers: { "retry-after": "2" } }));
    expect(waited).toBeGreaterThanOrEqual(2000);
    expect(failed).toMatchObject({ attempt: 1, response_status: 429, retry_after_seconds: 2 });
    const gap = Date.parse(failed.next_attempt_at) - Date.parse(failed.attempted_at);
    expect(gap).toBeGreaterThanOrEqual(2000);
    expect(gap).toBeLessThan(2500);
  });

  it("a 503 with Retry-After as an HTTP date works the same", async () => {
    // Made as the answer is sent; whole seconds, so 2 to 3 s away when the sender reads it.
    const { waited, failed } = await slowedDown(() => ({
      status: 503,
      headers: { "retry-after": new Date(Date.now() + 3000).toUTCString() },
    }));
    expect(waited).toBeGreaterThanOrEqual(2000);
    expect(failed).toMatchObject({ response_status: 503, retry_after_seconds: expect.any(Number) });
    expect([2, 3]).toContain(failed.retry_after_seconds);
    const gap = Date.parse(failed.next_attempt_at) - Date.parse(failed.attempted_at);
    expect(gap).toBeGreaterThanOrEqual(failed.retry_after_seconds * 1000);
    expect(gap).toBeLessThan(failed.retry_after_seconds * 1000 + 500);
  });

  it("a Retry-After of two hours pauses the subscription for one", async () => {
    const c = await h.account();
    const r = await receiver((_req, i) =>
      i === 0 ? { status: 429, headers: { "retry-after": "7200" } } : 200,
    );
    const id = await subscribe(c, r.url);
    await returns(c, 1);
    const log = await waitFor(
      async () => {
        const all = await deliveries(c, id);
        return all.some((d) => d.status === "failed") ? all : undefined;
      },
      "the first attempt recorded",
      { timeoutMs: 20_000 },
    );
    const failed = log.find((d) => d.status === "failed");
    expect(failed).toMatchObject({ response_status: 429, retry_after_seconds: 7200 });
    const attempted = Date.parse(failed.attempted_at);
    const retry = log.find((d) => d.status === "pending");
    for (const next of [failed.next_attempt_at, retry?.next_attempt_at]) {
      expect(Date.parse(next)).toBeGreaterThanOrEqual(attempted + HOUR_MS);
      expect(Date.parse(next)).toBeLessThanOrEqual(Date.now() + HOUR_MS + 1000);
    }
    // The schedule's 100 ms retry does not happen.
    await sleep(500);
    expect(r.received).toHaveLength(1);
  });

  it(`a hanging receiver never has more than ${CONCURRENCY} requests of one subscription open`, async () => {
    const c = await h.account();
    let open = 0;
    let peak = 0;
    let release: () => void = () => {};
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    const r = await receiver(async () => {
      peak = Math.max(peak, ++open);
      await released;
      open--;
      return 200;
    });
    await subscribe(c, r.url);
    await returns(c, 6);
    await waitFor(async () => (r.received.length >= CONCURRENCY ? true : undefined), "the first attempts", {
      timeoutMs: 20_000,
    });
    // Held well within the 10 s attempt timeout: nothing more may start meanwhile.
    await sleep(1500);
    expect(r.received).toHaveLength(CONCURRENCY);
    release();
    await waitFor(async () => (r.acknowledged().length >= 6 ? true : undefined), "every event delivered", {
      timeoutMs: 20_000,
    });
    expect(new Set(r.acknowledged().map((e) => e.id)).size).toBe(6);
    expect(peak).toBe(CONCURRENCY);
  });
});
