// Prometheus metrics, one registry per server instance (tests run several in one process).
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from "prom-client";
import type { QueueStats } from "./queue/index.ts";

/** `stats` reads the queue's gauges (queue/maintenance.ts): a few rows per account, never the backlog. */
export function createMetrics(stats: () => Promise<QueueStats>) {
  // One read per scrape serves the three queue gauges.
  let reading: Promise<QueueStats | undefined> | undefined;
  const read = () => {
    reading ??= stats()
      .catch(() => undefined)
      .finally(() => setTimeout(() => (reading = undefined), 100).unref());
    return reading;
  };
  const registry = new Registry();
  // prom-client names its defaults process_* and nodejs_*: one prefix keeps them oisr_process_cpu_…,
  // not oisr_process_process_cpu_….
  collectDefaultMetrics({ register: registry, prefix: "oisr_" });
  const registers = [registry];
  const queueGauge = (name: string, help: string, pick: (stats: QueueStats) => number) =>
    new Gauge({
      name,
      help: `${help} Read from the database at scrape time.`,
      registers,
      async collect() {
        const stats = await read();
        if (stats) this.set(pick(stats));
      },
    });
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
    queued: queueGauge("oisr_queue_requests", "Requests queued (pending or processing).", (q) => q.queued),
    backlogged: queueGauge(
      "oisr_queue_accounts",
      "Accounts with at least one queued request.",
      (q) => q.backlogged,
    ),
    oldestAge: queueGauge(
      "oisr_queue_oldest_age_seconds",
      "Age of the oldest request at the head of an account's queue (the queue's lag), 0 when none.",
      (q) => q.oldestAgeSeconds,
    ),
  };
}

export type Metrics = ReturnType<typeof createMetrics>;
