// GET /metrics: Prometheus text with the HTTP, queue, processing, webhook and rate-limit series;
// gauges that survive a database that fails or hangs; and the dashboard and alert rules in
// docs/operations/ naming only metrics that a real /metrics output has.
import { readFileSync } from "node:fs";
import { order } from "@oisr/contract/fixtures";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse as parseYaml } from "yaml";
import { loadConfig, type RunningServer, startServer } from "../src/index.ts";
import { createMetrics } from "../src/metrics.ts";
import type { QueueStats } from "../src/queue/index.ts";
import { newIdAt } from "../src/store/ids.ts";
import { startWorker } from "../src/worker/worker.ts";

const ENV = {
  PORT: "0",
  LOG_LEVEL: "silent",
  OISR_DATA_DIR: "memory://",
  OISR_RATE_LIMITS: '{"orders_read": 1}',
};

function caller(server: () => RunningServer, token: () => string) {
  return (path: string, init: RequestInit = {}) =>
    fetch(`${server().url}${path}`, {
      ...init,
      headers: { authorization: `Bearer ${token()}`, "content-type": "application/json" },
    });
}

const scrape = async (server: RunningServer) => {
  const res = await fetch(`${server.origin}/metrics`);
  expect(res.status).toBe(200);
  return res.text();
};

/** The value of one sample line, e.g. `oisr_queue_requests{status="pending"}`. */
function sample(text: string, series: string): number {
  const line = text.split("\n").find((l) => l.startsWith(`${series} `));
  if (line === undefined) throw new Error(`no sample ${series} in /metrics`);
  return Number(line.slice(series.length + 1));
}

async function until(check: () => Promise<boolean>, what: string): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`timed out waiting for ${what}`);
}

describe("GET /metrics on an all-in-one process", () => {
  let server: RunningServer;
  let token: string;
  const call = caller(
    () => server,
    () => token,
  );
  beforeAll(async () => {
    server = await startServer(loadConfig(ENV));
    token = (await server.services.accounts.createAccount("metrics")).token;
  });
  afterAll(() => server.close());

  it("counts calls by route template, refusals by scope, and attempts and completions by kind", async () => {
    const ack = (await (
      await call("/ingest/orders", {
        method: "POST",
        body: JSON.stringify({ orders: [order({ external_id: "M-1" })] }),
      })
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
    expect(res.headers.get("content-type")).toContain("text/plain");
    const text = await scrape(server);
    expect(text).toContain(
      'oisr_http_requests_total{route="/v2/ingest/orders",method="POST",status="202"} 1',
    );
    expect(text).toContain(
      'oisr_http_requests_total{route="/v2/orders/{identifier}",method="GET",status="200"} 1',
    );
    // Every answered call is timed once, under its route template.
    expect(
      sample(text, 'oisr_http_request_duration_seconds_count{route="/v2/ingest/orders",method="POST"}'),
    ).toBe(1);
    expect(
      sample(text, 'oisr_http_request_duration_seconds_count{route="/v2/orders/{identifier}",method="GET"}'),
    ).toBe(2);
    expect(
      sample(text, 'oisr_http_request_duration_seconds_sum{route="/v2/ingest/orders",method="POST"}'),
    ).toBeGreaterThan(0);
    // Refused before routing, still under its route template.
    expect(text).toContain(
      'oisr_http_requests_total{route="/v2/orders/{identifier}",method="GET",status="429"} 1',
    );
    expect(text).toContain('oisr_rate_limit_refusals_total{scope="orders_read"} 1');
    expect(text).toContain('oisr_request_attempts_total{kind="orders",result="succeeded"} 1');
    expect(sample(text, 'oisr_requests_completed_total{kind="orders",status="succeeded"}')).toBe(1);
    // Every series exists from the start, so increase() sees the first dead request.
    expect(sample(text, 'oisr_requests_completed_total{kind="returns",status="dead"}')).toBe(0);
    expect(sample(text, 'oisr_webhook_delivery_attempts_total{outcome="failed"}')).toBe(0);
    expect(sample(text, 'oisr_queue_requests{status="pending"}')).toBe(0);
    expect(sample(text, 'oisr_queue_requests{status="processing"}')).toBe(0);
    expect(sample(text, "oisr_queue_accounts")).toBe(0);
    expect(sample(text, "oisr_queue_oldest_age_seconds")).toBe(0);
    expect(sample(text, "oisr_webhook_oldest_undelivered_age_seconds")).toBe(0);
    expect(sample(text, 'oisr_metrics_read_errors_total{source="queue"}')).toBe(0);
    expect(text).toContain("oisr_request_processing_seconds_bucket");
  });

  it("names in the Grafana dashboard and the alert rules all exist in /metrics", async () => {
    const text = await scrape(server);
    const exported = new Set<string>();
    for (const [, name, type] of text.matchAll(/^# TYPE (\S+) (\S+)$/gm)) {
      exported.add(name as string);
      if (type === "histogram" || type === "summary")
        for (const suffix of ["_bucket", "_sum", "_count"]) exported.add(`${name}${suffix}`);
    }
    const root = new URL("../../../docs/operations/", import.meta.url);
    const dashboard = JSON.parse(readFileSync(new URL("grafana-dashboard.json", root), "utf8")) as {
      panels: { targets?: { expr: string }[] }[];
      templating: { list: { query: string | { query: string } }[] };
    };
    const rules = parseYaml(readFileSync(new URL("alerts.yaml", root), "utf8")) as {
      groups: { rules: { alert: string; expr: string }[] }[];
    };
    const expressions = [
      ...dashboard.panels.flatMap((p) => (p.targets ?? []).map((t) => t.expr)),
      ...dashboard.templating.list.map((v) => (typeof v.query === "string" ? v.query : v.query.query)),
      ...rules.groups.flatMap((g) => g.rules.map((r) => r.expr)),
    ];
    const used = new Set(expressions.flatMap((e) => e.match(/\boisr_[a-z0-9_]+/g) ?? []));
    // Not vacuous: the files are read and name the metrics this change is about.
    expect(used).toContain("oisr_webhook_oldest_undelivered_age_seconds");
    expect(used).toContain("oisr_requests_completed_total");
    expect(used.size).toBeGreaterThan(10);
    expect([...used].filter((name) => !exported.has(name))).toEqual([]);
  });
});

describe("the queue and webhook gauges with no worker running, then the completion counter", () => {
  let server: RunningServer;
  let token: string;
  let accountId: string;
  const call = caller(
    () => server,
    () => token,
  );
  beforeAll(async () => {
    // API only: nothing processes the requests or delivers the webhooks until the test says so.
    server = await startServer(loadConfig({ ...ENV, OISR_ROLE: "api" }));
    const created = await server.services.accounts.createAccount("gauges");
    token = created.token;
    accountId = created.account_id;
  });
  afterAll(() => server.close());
  const rows = (query: ReturnType<typeof sql>) => server.services.database.rows(query);

  it("shows pending and processing requests, the queue's lag and the oldest undelivered event", async () => {
    for (const id of ["G-1", "G-2", "G-3"]) {
      const res = await call("/ingest/orders", {
        method: "POST",
        body: JSON.stringify({ orders: [order({ external_id: id })] }),
      });
      expect(res.status).toBe(202);
    }
    // The first request's worker died in its last attempt: started, attempts used up.
    await rows(
      sql`update requests set status = 'processing', attempts = 5, accepted_at = now() - interval '90 seconds'
           where id = (select id from requests where account_id = ${accountId} order by seq limit 1)`,
    );
    // An event waiting to be fanned out (40 s) and an older one with a retry scheduled (300 s).
    // Ids carry the rows' created_at, as the server makes them (decision 020).
    const older = newIdAt("evt", Date.now() - 300_000);
    const waiting = newIdAt("evt", Date.now() - 40_000);
    const retry = newIdAt("whd", Date.now());
    await rows(
      sql`insert into events (account_id, id, type, payload, created_at, dispatched_at) values
            (${accountId}, ${older}, 'return.created', '{}', oisr_ulid_time(${older}), now()),
            (${accountId}, ${waiting}, 'return.created', '{}', oisr_ulid_time(${waiting}), null)`,
    );
    await rows(
      sql`insert into webhook_deliveries (account_id, id, subscription_id, event_id, event_type, attempt, status,
                                          next_attempt_at, created_at)
          values (${accountId}, ${retry}, 'whs_1', ${older}, 'return.created', 3, 'pending', now() + interval '1 hour',
                  oisr_ulid_time(${retry}))`,
    );

    const text = await scrape(server);
    expect(sample(text, 'oisr_queue_requests{status="pending"}')).toBe(2);
    expect(sample(text, 'oisr_queue_requests{status="processing"}')).toBe(1);
    expect(sample(text, "oisr_queue_accounts")).toBe(1);
    expect(sample(text, "oisr_queue_oldest_age_seconds")).toBeGreaterThanOrEqual(90);
    expect(sample(text, "oisr_queue_oldest_age_seconds")).toBeLessThan(150);
    expect(sample(text, "oisr_webhook_oldest_undelivered_age_seconds")).toBeGreaterThanOrEqual(300);
    expect(sample(text, "oisr_webhook_oldest_undelivered_age_seconds")).toBeLessThan(360);

    // Delivered: the undispatched event is now the oldest owed.
    await rows(sql`update webhook_deliveries set status = 'succeeded' where id = ${retry}`);
    await new Promise((r) => setTimeout(r, 150)); // past the one-read-per-scrape memo
    const later = sample(await scrape(server), "oisr_webhook_oldest_undelivered_age_seconds");
    expect(later).toBeGreaterThanOrEqual(40);
    expect(later).toBeLessThan(100);
  });

  it("counts each request's final status once, where the worker settles it", async () => {
    const config = loadConfig({ ...ENV, OISR_ROLE: "worker" });
    const worker = await startWorker({ config, logger: server.logger, services: server.services });
    try {
      await until(async () => {
        const [row] = await rows(
          sql`select count(*)::int as n from requests where status in ('pending', 'processing')`,
        );
        return (row as { n: number }).n === 0;
      }, "the queue to drain");
    } finally {
      await worker.stop();
    }
    await new Promise((r) => setTimeout(r, 150));
    const text = await scrape(server);
    expect(sample(text, 'oisr_requests_completed_total{kind="orders",status="dead"}')).toBe(1);
    expect(sample(text, 'oisr_requests_completed_total{kind="orders",status="succeeded"}')).toBe(2);
    expect(sample(text, 'oisr_requests_completed_total{kind="orders",status="failed"}')).toBe(0);
    expect(sample(text, 'oisr_queue_requests{status="pending"}')).toBe(0);
    expect(sample(text, 'oisr_queue_requests{status="processing"}')).toBe(0);
    expect(sample(text, "oisr_queue_oldest_age_seconds")).toBe(0);
  });
});

describe("gauges when the database fails or does not answer", () => {
  const stats: QueueStats = { queued: 7, processing: 3, backlogged: 2, oldestAgeSeconds: 12 };
  it("keep their last values, count the failed reads, and the scrape still answers", async () => {
    let mode: "ok" | "fail" | "hang" = "ok";
    const reads = { queue: 0, webhooks: 0 };
    const read =
      <T>(source: keyof typeof reads, value: T) =>
      () => {
        reads[source] += 1;
        if (mode === "fail") return Promise.reject(new Error("connection refused"));
        if (mode === "hang") return new Promise<T>(() => {});
        return Promise.resolve(value);
      };
    const metrics = createMetrics({
      queue: read("queue", stats),
      webhooks: read("webhooks", { oldestUndeliveredAgeSeconds: 42 }),
      timeoutMs: 50,
    });
    const scrapeNow = async () => {
      await new Promise((r) => setTimeout(r, 120)); // past the one-read-per-scrape memo
      return metrics.registry.metrics();
    };

    let text = await scrapeNow();
    // Four gauges and the error counter, one read of each source.
    expect(reads).toEqual({ queue: 1, webhooks: 1 });
    expect(sample(text, 'oisr_queue_requests{status="pending"}')).toBe(4);
    expect(sample(text, 'oisr_queue_requests{status="processing"}')).toBe(3);
    expect(sample(text, "oisr_queue_accounts")).toBe(2);
    expect(sample(text, "oisr_queue_oldest_age_seconds")).toBe(12);
    expect(sample(text, "oisr_webhook_oldest_undelivered_age_seconds")).toBe(42);
    expect(sample(text, 'oisr_metrics_read_errors_total{source="queue"}')).toBe(0);

    mode = "fail";
    text = await scrapeNow();
    expect(sample(text, 'oisr_metrics_read_errors_total{source="queue"}')).toBe(1);
    expect(sample(text, 'oisr_metrics_read_errors_total{source="webhooks"}')).toBe(1);
    expect(sample(text, 'oisr_queue_requests{status="pending"}')).toBe(4);
    expect(sample(text, "oisr_webhook_oldest_undelivered_age_seconds")).toBe(42);

    mode = "hang";
    const started = performance.now();
    text = await scrapeNow();
    expect(performance.now() - started).toBeLessThan(1000);
    expect(sample(text, 'oisr_metrics_read_errors_total{source="queue"}')).toBe(2);
    expect(sample(text, "oisr_queue_oldest_age_seconds")).toBe(12);
    // The hanging read is waited for again, not started a second time.
    text = await scrapeNow();
    expect(reads).toEqual({ queue: 3, webhooks: 3 });
    expect(sample(text, 'oisr_metrics_read_errors_total{source="webhooks"}')).toBe(3);
  });
});

describe("OISR_METRICS_PORT", () => {
  it("is unset by default and must be a port number", () => {
    expect(loadConfig({}).metricsPort).toBeUndefined();
    expect(loadConfig({ OISR_METRICS_PORT: "9464" }).metricsPort).toBe(9464);
    expect(() => loadConfig({ OISR_METRICS_PORT: "metrics" })).toThrow(/OISR_METRICS_PORT/);
  });

  describe("on a worker-only process", () => {
    let server: RunningServer;
    beforeAll(async () => {
      server = await startServer(loadConfig({ ...ENV, OISR_ROLE: "worker", OISR_METRICS_PORT: "0" }));
    });
    afterAll(() => server.close());

    it("serves the worker's counters, /healthz and /readyz, and nothing of the API", async () => {
      expect(server.url).toBeUndefined();
      const origin = server.metricsOrigin as string;
      expect(origin).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      // Work the worker does itself, accepted straight into the queue (this process has no API).
      const { account_id } = await server.services.accounts.createAccount("worker-metrics");
      const bodyJson = JSON.stringify({ orders: [order({ external_id: "W-1" })] });
      await server.services.requests.accept({
        accountId: account_id,
        kind: "orders",
        endpoint: "POST /ingest/orders",
        params: null,
        bodyJson,
        bodyHash: "w-1",
        itemCount: 1,
        idempotencyKey: null,
        apiKeyId: null,
        traceId: "0".repeat(32),
      });
      const completed = 'oisr_requests_completed_total{kind="orders",status="succeeded"}';
      await until(async () => {
        const res = await fetch(`${origin}/metrics`);
        return res.status === 200 && sample(await res.text(), completed) === 1;
      }, "the worker's completion to show on its metrics port");

      expect(await (await fetch(`${origin}/healthz`)).json()).toEqual({ status: "ok" });
      expect(await (await fetch(`${origin}/readyz`)).json()).toEqual({ status: "ready" });
      const other = await fetch(`${origin}/v2/orders`);
      expect(other.status).toBe(404);
      expect(other.headers.get("content-type")).toContain("application/problem+json");
    });
  });

  describe("on a process with the API", () => {
    let server: RunningServer;
    beforeAll(async () => {
      server = await startServer(loadConfig({ ...ENV, OISR_METRICS_PORT: "0" }));
    });
    afterAll(() => server.close());

    it("moves /metrics off the API port, which keeps its probes", async () => {
      const metrics = await fetch(`${server.metricsOrigin}/metrics`);
      expect(metrics.status).toBe(200);
      expect(await metrics.text()).toContain("oisr_http_requests_total");
      expect(server.metricsOrigin).not.toBe(server.origin);
      expect((await fetch(`${server.origin}/metrics`)).status).toBe(404);
      expect((await fetch(`${server.origin}/healthz`)).status).toBe(200);
    });
  });
});
