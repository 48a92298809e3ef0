// Prometheus metrics, one registry per server instance (tests run several in one process).
import { sql } from "drizzle-orm";
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from "prom-client";
import type { Database } from "./db/client.ts";

export function createMetrics(database: Database) {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: "oisr_process_" });
  const registers = [registry];
  return {
    registry,
    httpRequests: new Counter({
      name: "oisr_http_requests_total",
      help: "HTTP calls answered, by route template, method and status.",
      labelNames: ["route", "method", "status"] as const,
      registers,
    }),
    httpDuration: new Histogram({
      name: "oisr_http_request_duration_seconds",
      help: "Time to answer an HTTP call, by route template and method.",
      labelNames: ["route", "method"] as const,
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
      registers,
    }),
    rateLimited: new Counter({
      name: "oisr_rate_limit_refusals_total",
      help: "Calls refused with 429, by rate-limit scope.",
      labelNames: ["scope"] as const,
      registers,
    }),
    processingDuration: new Histogram({
      name: "oisr_request_processing_seconds",
      help: "Time to apply one ingest request (one attempt), by kind and outcome.",
      labelNames: ["kind", "outcome"] as const,
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers,
    }),
    attempts: new Counter({
      name: "oisr_request_attempts_total",
      help: "Processing attempts, by kind and result (succeeded, failed, retry, dead, lease_lost).",
      labelNames: ["kind", "result"] as const,
      registers,
    }),
    webhookDeliveries: new Counter({
      name: "oisr_webhook_delivery_attempts_total",
      help: "Webhook delivery attempts, by outcome (succeeded, failed).",
      labelNames: ["outcome"] as const,
      registers,
    }),
    queueDepth: new Gauge({
      name: "oisr_requests",
      help: "Requests in the queue by status (pending, processing), read from the database at scrape time.",
      labelNames: ["status"] as const,
      registers,
      async collect() {
        const rows = await database
          .rows<{ status: string; n: number | string }>(
            sql`select status, count(*) as n from requests where status in ('pending', 'processing') group by status`,
          )
          .catch(() => []);
        this.reset();
        for (const status of ["pending", "processing"]) {
          this.set({ status }, Number(rows.find((r) => r.status === status)?.n ?? 0));
        }
      },
    }),
  };
}

export type Metrics = ReturnType<typeof createMetrics>;
