// Issue 18 / docs/product.md §10: every webhook delivery carries a valid W3C traceparent, tracing
// off included (OpenTelemetry on: test/tracing.test.ts). Off, its trace id is the one of the
// ingest call whose apply wrote the event, each attempt has a span id of its own, and the flags
// are 00. Runs on PGlite, and on PostgreSQL when DATABASE_URL is set.
import { order } from "@oisr/contract/fixtures";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig, type RunningServer, startServer } from "../src/index.ts";
import {
  freshDatabaseEnv,
  type Received,
  type Receiver,
  startReceiver,
  waitFor,
} from "../src/webhooks/test-support.ts";

let server: RunningServer;
let drop: () => Promise<void>;
let receiver: Receiver;

beforeAll(async () => {
  const db = await freshDatabaseEnv();
  drop = db.drop;
  // The first attempt at each return fails, so every event is also retried once.
  const failedOnce = new Set<string>();
  receiver = await startReceiver((req) => {
    const id = String(req.headers["webhook-id"]);
    if (failedOnce.has(id)) return 204;
    failedOnce.add(id);
    return 500;
  });
  server = await startServer(
    // No OTEL_* variable: tracing is off.
    loadConfig({
      PORT: "0",
      LOG_LEVEL: "silent",
      OISR_WEBHOOK_ALLOW_PRIVATE_NETWORKS: "1",
      OISR_WEBHOOK_RETRY_SCHEDULE: "20ms",
      ...db.env,
    }),
  );
});

afterAll(async () => {
  await server?.close();
  await receiver?.close();
  await drop?.();
});

const TRACEPARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-00$/;

async function call(token: string, path: string, body?: unknown, traceparent?: string) {
  const res = await fetch(`${server.url}${path}`, {
    method: body === undefined ? "GET" : "POST",
    headers: {
      authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { "content-type": "application/json" }),
      ...(traceparent ? { traceparent } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: await res.json() };
}

async function finished(token: string, requestId: string) {
  await waitFor(async () => {
    const record = await call(token, `/requests/${requestId}`);
    return record.body.status === "succeeded" || undefined;
  }, `request ${requestId}`);
}

const traceOf = (r: Received) => {
  const match = TRACEPARENT.exec(String(r.headers.traceparent));
  expect(match, `traceparent ${r.headers.traceparent}`).not.toBeNull();
  const [, traceId, spanId] = match as unknown as [string, string, string];
  expect(spanId).not.toBe("0".repeat(16));
  return { traceId, spanId };
};

describe("traceparent on webhook deliveries with tracing off", () => {
  it("carries the trace id of the ingest call that caused the event, a new span id per attempt", async () => {
    const { token } = await server.services.accounts.createAccount("traceparent");
    const sub = await call(token, "/webhook_subscriptions", {
      url: receiver.url,
      events: ["return.created"],
    });
    expect(sub.status).toBe(201);
    const orders = ["TP-1", "TP-2"].map((id) => order({ external_id: id }));
    const placed = await call(token, "/ingest/orders", { orders });
    await finished(token, placed.body.request_id);

    // Two calls, each with its own trace, sent together so one stage may apply both.
    const traces = {
      "RMA-TP-1": "4bf92f3577b34da6a3ce929d0e0e4736",
      "RMA-TP-2": "0af7651916cd43dd8448eb211c80319c",
    };
    const acks = await Promise.all(
      Object.entries(traces).map(([rma, traceId], i) =>
        call(
          token,
          "/ingest/returns",
          {
            returns: [
              {
                external_id: rma,
                order_id: `TP-${i + 1}`,
                items: [{ line_id: "L1", quantity: 1, reason_code: "damaged" }],
                requested_at: "2025-03-05T08:00:00Z",
                source_updated_at: "2025-03-05T08:00:00Z",
              },
            ],
          },
          `00-${traceId}-b7ad6b7169203331-01`,
        ),
      ),
    );
    for (const ack of acks) expect(ack.status).toBe(202);
    expect(acks.map((a) => a.body.trace_id)).toEqual(Object.values(traces));

    // Each event: a failed attempt and its retry.
    await waitFor(() => receiver.received.length >= 4 || undefined, "two attempts of each event");
    for (const [rma, traceId] of Object.entries(traces)) {
      const attempts = receiver.received.filter((r) => JSON.parse(r.body).data.object.external_id === rma);
      expect(attempts).toHaveLength(2);
      const [first, retry] = attempts.map(traceOf);
      expect(first?.traceId).toBe(traceId);
      expect(retry?.traceId).toBe(traceId);
      expect(retry?.spanId).not.toBe(first?.spanId);
    }
  });

  it("a request event carries the trace id of its request's call", async () => {
    const { token } = await server.services.accounts.createAccount("traceparent-request-event");
    await call(token, "/webhook_subscriptions", { url: receiver.url, events: ["request.succeeded"] });
    const traceId = "5e05a0f9b6eac538ba9702f9c2a31970";
    const ack = await call(
      token,
      "/ingest/orders",
      { orders: [order({ external_id: "TP-REQ" })] },
      `00-${traceId}-b7ad6b7169203331-01`,
    );
    const event = await waitFor(
      () =>
        receiver.received.find((r) => {
          const body = JSON.parse(r.body);
          return body.type === "request.succeeded" && body.data.object.request_id === ack.body.request_id;
        }),
      "the request.succeeded delivery",
    );
    expect(traceOf(event).traceId).toBe(traceId);
  });

  it("a test event carries the trace id of the POST …/test call that caused it", async () => {
    const { token } = await server.services.accounts.createAccount("traceparent-test-event");
    const sub = await call(token, "/webhook_subscriptions", {
      url: receiver.url,
      events: ["return.created"],
    });
    const before = receiver.received.length;
    const caller = "5e05a0f9b6eac538ba9702f9c2a31970";
    const test = await call(
      token,
      `/webhook_subscriptions/${sub.body.id}/test`,
      {},
      `00-${caller}-b7ad6b7169203331-01`,
    );
    expect(test.status).toBe(202);
    const ping = await waitFor(
      () => receiver.received.slice(before).find((r) => JSON.parse(r.body).type === "webhook.test"),
      "the test event",
    );
    expect(traceOf(ping).traceId).toBe(caller);
  });
});
