// Receiver backpressure in the mock, on its frozen clock: a 429 or 503 with Retry-After pauses the
// subscription (at most an hour) and the deliveries log shows it; attempts to one subscription run
// at most `subscriptionConcurrency` at once. The rule itself is @oisr/contract's, as on the server.
import { HttpResponse, http } from "msw";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createMock } from "../src/index.ts";
import { setupMockServer } from "../src/node/index.ts";
import { fetchClient, order, returnOf } from "./support.ts";

const HOOK = "https://hooks.example.test/slow";
const START = Date.parse("2025-06-01T12:00:00Z");
const api = setupMockServer({
  clock: { start: START, frozen: true },
  webhooks: { subscriptionConcurrency: 2 },
});
const token = "oisr_backpressure_test";
const call = fetchClient(api.baseUrl, token);

/** How the receiver answers each request, by its index; a held answer waits for `release`. */
let answers: ((index: number) => Response | Promise<Response>) | undefined;
let received = 0;
let inFlight = 0;
let peak = 0;

beforeAll(() => api.listen({ onUnhandledFrame: "error" }));
afterEach(() => {
  api.controls.reset();
  api.server.resetHandlers();
  answers = undefined;
  received = 0;
  inFlight = 0;
  peak = 0;
});
afterAll(() => api.close());

function receiver(answer: (index: number) => Response | Promise<Response>) {
  answers = answer;
  api.server.use(
    http.post(HOOK, async () => {
      const index = received++;
      peak = Math.max(peak, ++inFlight);
      try {
        return await (answers as typeof answer)(index);
      } finally {
        inFlight--;
      }
    }),
  );
}

async function subscribe(): Promise<string> {
  const created = await call("POST", "/webhook_subscriptions", { url: HOOK, events: ["return.created"] });
  expect(created.status).toBe(201);
  return created.body.id;
}

/** `count` returns, one request: `count` return.created events. */
async function returns(count: number, tag: string) {
  const orders = Array.from({ length: count }, (_, i) => order(`O-${tag}-${i}`));
  await call("POST", "/ingest/orders", { orders });
  await call("POST", "/ingest/returns", {
    returns: orders.map((o, i) => returnOf(`R-${tag}-${i}`, o.external_id)),
  });
  await api.controls.flush();
}

interface Attempt {
  event_id: string;
  attempt: number;
  status: string;
  response_status: number | null;
  retry_after_seconds: number | null;
  next_attempt_at: string | null;
}

const deliveries = async (id: string): Promise<Attempt[]> =>
  (await call("GET", `/webhook_subscriptions/${id}/deliveries`)).body.data;

const at = (ms: number) => new Date(ms).toISOString();

describe("Retry-After", () => {
  it("a 429 with Retry-After: 30 pauses the subscription 30 s (the schedule says 5 s); the log shows it", async () => {
    receiver((i) =>
      i === 0
        ? new HttpResponse(null, { status: 429, headers: { "retry-after": "30" } })
        : new HttpResponse(),
    );
    const id = await subscribe();
    await returns(1, "a");
    expect(received).toBe(1);
    const [failed, retry] = [...(await deliveries(id))].reverse();
    expect(failed).toMatchObject({
      attempt: 1,
      status: "failed",
      response_status: 429,
      retry_after_seconds: 30,
      next_attempt_at: at(START + 30_000),
    });
    expect(retry).toMatchObject({ attempt: 2, status: "pending", next_attempt_at: at(START + 30_000) });

    // A new event during the pause waits for its end as well.
    await returns(1, "b");
    expect(received).toBe(1);
    const waiting = (await deliveries(id)).filter((d) => d.status === "pending");
    expect(waiting.map((d) => d.next_attempt_at)).toEqual([at(START + 30_000), at(START + 30_000)]);

    api.controls.clock.advance(29_999);
    await api.controls.flush();
    expect(received).toBe(1);
    api.controls.clock.advance(1);
    await api.controls.flush();
    expect(received).toBe(3);
    expect((await deliveries(id)).filter((d) => d.status === "pending")).toEqual([]);
  });

  it("a 503 with an HTTP date works the same, and a long one is capped at an hour", async () => {
    const inTwoHours = new Date(Date.now() + 7_200_000).toUTCString();
    receiver((i) =>
      i === 0
        ? new HttpResponse(null, { status: 503, headers: { "retry-after": inTwoHours } })
        : new HttpResponse(),
    );
    const id = await subscribe();
    await returns(1, "c");
    const [failed] = [...(await deliveries(id))].reverse();
    expect(failed?.retry_after_seconds).toBeGreaterThan(7_190);
    expect(failed?.retry_after_seconds).toBeLessThanOrEqual(7_200);
    expect(failed?.next_attempt_at).toBe(at(START + 3_600_000));
    api.controls.clock.advance(3_600_000);
    await api.controls.flush();
    expect(received).toBe(2);
  });

  it("is only read on 429 and 503", async () => {
    receiver((i) =>
      i === 0
        ? new HttpResponse(null, { status: 500, headers: { "retry-after": "30" } })
        : new HttpResponse(),
    );
    const id = await subscribe();
    await returns(1, "d");
    const [failed] = [...(await deliveries(id))].reverse();
    expect(failed).toMatchObject({ retry_after_seconds: null, next_attempt_at: at(START + 5_000) });
  });
});

describe("per-subscription concurrency", () => {
  it("never has more than subscriptionConcurrency attempts to one subscription in flight", async () => {
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    receiver(async () => {
      await held;
      return new HttpResponse();
    });
    await subscribe();
    await call("POST", "/ingest/orders", { orders: Array.from({ length: 6 }, (_, i) => order(`O-e-${i}`)) });
    await call("POST", "/ingest/returns", {
      returns: Array.from({ length: 6 }, (_, i) => returnOf(`R-e-${i}`, `O-e-${i}`)),
    });
    // Let processing and the first attempts start (flush would wait for the held ones).
    for (let i = 0; i < 20 && received < 2; i++) await new Promise((r) => setTimeout(r, 10));
    await new Promise((r) => setTimeout(r, 50));
    expect(received).toBe(2);
    release();
    await api.controls.flush();
    expect(received).toBe(6);
    expect(peak).toBe(2);
  });

  it("refuses a concurrency outside 1 to 100", async () => {
    for (const subscriptionConcurrency of [0, 101, 1.5]) {
      expect(() => createMock({ webhooks: { subscriptionConcurrency } })).toThrow(
        "webhooks.subscriptionConcurrency must be a whole number from 1 to 100",
      );
    }
  });
});
