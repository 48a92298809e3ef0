// GET /metrics: Prometheus text with the HTTP, queue, processing and rate-limit series.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig, type RunningServer, startServer } from "../src/index.ts";
import { order } from "../src/test-fixtures.ts";

let server: RunningServer;
let token: string;

beforeAll(async () => {
  server = await startServer(
    loadConfig({
      PORT: "0",
      LOG_LEVEL: "silent",
      OISR_DATA_DIR: "memory://",
      OISR_RATE_LIMITS: '{"orders_read": 1}',
    }),
  );
  token = (await server.services.accounts.createAccount("metrics")).token;
});
afterAll(() => server.close());

const call = (path: string, init: RequestInit = {}) =>
  fetch(`${server.url}${path}`, {
    ...init,
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
  });

describe("GET /metrics", () => {
  it("counts calls by route template, refusals by scope, and attempts by kind", async () => {
    const ack = (await (
      await call("/ingest/orders", { method: "POST", body: JSON.stringify({ orders: [order("M-1")] }) })
    ).json()) as {
      request_id: string;
    };
    for (let i = 0; i < 50; i++) {
      const record = (await (await call(`/requests/${ack.request_id}`)).json()) as { status: string };
      if (record.status === "succeeded") break;
      await new Promise((r) => setTimeout(r, 50));
    }
    await call("/orders/M-1");
    expect((await call("/orders/M-1")).status).toBe(429);

    const res = await fetch(`${server.origin}/metrics`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("text/plain");
    const text = await res.text();
    expect(text).toContain(
      'oisr_http_requests_total{route="/v2/ingest/orders",method="POST",status="202"} 1',
    );
    expect(text).toContain(
      'oisr_http_requests_total{route="/v2/orders/{identifier}",method="GET",status="200"} 1',
    );
    expect(text).toContain('oisr_rate_limit_refusals_total{scope="orders_read"} 1');
    expect(text).toContain('oisr_request_attempts_total{kind="orders",result="succeeded"} 1');
    expect(text).toMatch(/oisr_queue_requests 0/);
    expect(text).toMatch(/oisr_queue_accounts 0/);
    expect(text).toMatch(/oisr_queue_oldest_age_seconds 0/);
    expect(text).toContain("oisr_request_processing_seconds_bucket");
  });
});
