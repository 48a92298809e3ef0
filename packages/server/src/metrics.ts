// Prometheus metrics, one registry per server instance (tests run several in one process).
// Names, and which to sum or max across processes, are explained in docs/operations/README.md.
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from "prom-client";
import type { ReplicaStatus } from "./db/read-source.ts";
import { PARTITIONED_TABLES } from "./partitions/retention.ts";
import { OPEN_STATUSES, type QueueStats, REQUEST_KINDS } from "./queue/index.ts";
import type { WebhookLag } from "./webhooks/sql/index.ts";
import { ROLLBACK_REASONS } from "./worker/rollback.ts";

/** What the gauges read from the database at scrape time; each read touches a few rows, never a backlog. */
export interface GaugeSources {
  /** queue/maintenance.ts `stats`. */
  queue: () => Promise<QueueStats>;
  /** webhooks/sql/history.ts `readWebhookLag`. */
  webhooks: () => Promise<WebhookLag>;
  /** db/read-source.ts: the read replica (OISR_READ_DATABASE_URL), when there is one. */
  replica?: () => Promise<ReplicaStatus>;
  /**
   * A read that takes longer leaves the gauges as they were for this scrape. Prometheus gives a
   * scrape 10 s by default, and PostgreSQL connections time out after 5 s (db/postgres.ts): a
   * database that does not answer must not fail the whole scrape, counters included.
   */
  timeoutMs?: number;
}

type Source = "queue" | "webhooks";
const SOURCES: readonly Source[] = ["queue", "webhooks"];
const COMPLETED_STATUSES = ["succeeded", "failed", "dead"] as const;
const ATTEMPT_RESULTS = ["succeeded", "failed", "retry", "dead", "lease_lost"] as const;

/**
 * Starts every series of a counter at 0. A series that first appears at 1 has no earlier sample
 * for increase() to count from (the first dead request would raise no alert), and an alert on
 * "no attempts at all" needs series that exist before the first attempt.
 */
function zeroed<T extends string>(counter: Counter<T>, series: Partial<Record<T, string>>[]): Counter<T> {
  for (const labels of series) counter.inc(labels, 0);
  return counter;
}

export function createMetrics(sources: GaugeSources) {
  const timeoutMs = sources.timeoutMs ?? 2000;
  const registry = new Registry();
  // prom-client names its defaults process_* and nodejs_*: one prefix keeps them oisr_process_cpu_…,
  // not oisr_process_process_cpu_….
  collectDefaultMetrics({ register: registry, prefix: "oisr_" });
  const registers = [registry];

  const readErrors = zeroed(
    new Counter({
      name: "oisr_metrics_read_errors_total",
      help: "Scrapes whose gauge read from the database failed or timed out, by source (queue, webhooks); the gauges kept their previous values.",
      labelNames: ["source"] as const,
      registers,
      // This scrape's failures show in this scrape.
      async collect() {
        await refresh();
      },
    }),
    SOURCES.map((source) => ({ source })),
  );

  // The last values read; a failed read keeps them, so a database outage shows as stale gauges and
  // a rising oisr_metrics_read_errors_total, never as a failed scrape.
  const last: { queue?: QueueStats; webhooks?: WebhookLag } = {};
  // A read still running from an earlier scrape (a database that does not answer) is waited for
  // again, not started a second time.
  const running: Partial<Record<Source, Promise<boolean>>> = {};
  const readSource = async (source: Source): Promise<void> => {
    let read = running[source];
    if (!read) {
      const started = Promise.resolve().then(() =>
        source === "queue"
          ? sources.queue().then((v) => {
              last.queue = v;
            })
          : sources.webhooks().then((v) => {
              last.webhooks = v;
            }),
      );
      read = started.then(
        () => true,
        () => false,
      );
      running[source] = read;
      void read.finally(() => delete running[source]);
    }
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timedOut = new Promise<boolean>((resolve) => {
      timer = setTimeout(() => resolve(false), timeoutMs);
      timer.unref();
    });
    const ok = await Promise.race([read, timedOut]);
    clearTimeout(timer);
    if (!ok) readErrors.inc({ source });
  };
  // One read per scrape serves every gauge: each gauge's collect() awaits the same round.
  let round: Promise<void> | undefined;
  const refresh = () => {
    round ??= Promise.all(SOURCES.map(readSource))
      .then(() => {})
      .finally(() => setTimeout(() => (round = undefined), 100).unref());
    return round;
  };

  const queueGauge = (name: string, help: string, pick: (stats: QueueStats) => number) =>
    new Gauge({
      name,
      help: `${help} Read from the database at scrape time; the same in every process.`,
      registers,
      async collect() {
        await refresh();
        if (last.queue) this.set(pick(last.queue));
      },
    });

  if (sources.replica) replicaGauges(sources.replica, registers, timeoutMs);

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
    attempts: zeroed(
      new Counter({
        name: "oisr_request_attempts_total",
        help: "Processing attempts, by kind and result (succeeded, failed, retry, dead, lease_lost).",
        labelNames: ["kind", "result"] as const,
        registers,
      }),
      REQUEST_KINDS.flatMap((kind) => ATTEMPT_RESULTS.map((result) => ({ kind, result }))),
    ),
    stageRollbacks: zeroed(
      new Counter({
        name: "oisr_stage_rollbacks_total",
        help: "Apply transactions (stages) that rolled back, by reason: a PostgreSQL condition name (deadlock_detected, lock_not_available, serialization_failure, …) or sqlstate_<code>, database_unavailable, error (not from the database), lease_lost (another worker took the account over), abandoned (the stage before it rolled back). Each is also logged with its SQLSTATE and statement.",
        labelNames: ["reason"] as const,
        registers,
      }),
      ROLLBACK_REASONS.map((reason) => ({ reason })),
    ),
    completed: zeroed(
      new Counter({
        name: "oisr_requests_completed_total",
        help: "Requests that reached a final status, by kind and status (succeeded, failed, dead), counted by the worker process that settled them. Sum over processes and rate() it: it is not a table count (retention drops rows, a restart starts again at 0).",
        labelNames: ["kind", "status"] as const,
        registers,
      }),
      REQUEST_KINDS.flatMap((kind) => COMPLETED_STATUSES.map((status) => ({ kind, status }))),
    ),
    // Retention passes (decision 020), counted by the process that ran them: sum over processes.
    retentionPartitionsDropped: zeroed(
      new Counter({
        name: "oisr_retention_partitions_dropped_total",
        help: "Time partitions dropped by retention passes, by table (requests, idempotency_keys).",
        labelNames: ["table"] as const,
        registers,
      }),
      PARTITIONED_TABLES.map((table) => ({ table })),
    ),
    retentionRowsDropped: zeroed(
      new Counter({
        name: "oisr_retention_rows_dropped_total",
        help: "Rows the dropped partitions held, by table: what the row-by-row purge used to delete.",
        labelNames: ["table"] as const,
        registers,
      }),
      PARTITIONED_TABLES.map((table) => ({ table })),
    ),
    retentionFailures: zeroed(
      new Counter({
        name: "oisr_retention_failures_total",
        help: "Retention passes whose drops on a table failed (e.g. 2 s waiting for its lock), retried on the next pass; a steady rise means partitions past retention pile up.",
        labelNames: ["table"] as const,
        registers,
      }),
      PARTITIONED_TABLES.map((table) => ({ table })),
    ),
    // The embedded database's vacuum passes (decision 027): PGlite only, one process.
    embeddedVacuumTables: zeroed(
      new Counter({
        name: "oisr_embedded_vacuum_tables_total",
        help: "Tables the embedded database's vacuum passes processed, by action (vacuum: VACUUM (ANALYZE); analyze: ANALYZE alone). PGlite only: PostgreSQL's autovacuum does this there.",
        labelNames: ["action"] as const,
        registers,
      }),
      [{ action: "vacuum" }, { action: "analyze" }],
    ),
    embeddedVacuumSeconds: zeroed(
      new Counter({
        name: "oisr_embedded_vacuum_seconds_total",
        help: "Time the embedded database's vacuum passes took. PGlite runs in the server's thread, so this is time calls waited behind them.",
        registers,
      }),
      [{}],
    ),
    embeddedVacuumFailures: zeroed(
      new Counter({
        name: "oisr_embedded_vacuum_failures_total",
        help: "Embedded vacuum passes that failed (logged as 'embedded vacuum pass failed'); the next pass tries again.",
        registers,
      }),
      [{}],
    ),
    webhookDeliveries: zeroed(
      new Counter({
        name: "oisr_webhook_delivery_attempts_total",
        help: "Webhook delivery attempts, by outcome (succeeded, failed).",
        labelNames: ["outcome"] as const,
        registers,
      }),
      [{ outcome: "succeeded" }, { outcome: "failed" }],
    ),
    queued: new Gauge({
      name: "oisr_queue_requests",
      help: "Requests in the queue, by status: pending (not started) or processing (started: being applied or waiting for a retry). Read from the database at scrape time; the same in every process.",
      labelNames: ["status"] as const,
      registers,
      async collect() {
        await refresh();
        const q = last.queue;
        if (!q) return;
        const counts = { pending: q.queued - q.processing, processing: q.processing };
        for (const status of OPEN_STATUSES) this.set({ status }, counts[status]);
      },
    }),
    backlogged: queueGauge(
      "oisr_queue_accounts",
      "Accounts with at least one queued request.",
      (q) => q.backlogged,
    ),
    oldestAge: queueGauge(
      "oisr_queue_oldest_age_seconds",
      "Age of the oldest queued request (the head of its account's queue, whether due or waiting for a retry): the queue's lag, 0 when none.",
      (q) => q.oldestAgeSeconds,
    ),
    webhookOldestAge: new Gauge({
      name: "oisr_webhook_oldest_undelivered_age_seconds",
      help: "Age of the oldest event with a webhook delivery still owed (not yet fanned out, or an attempt pending or scheduled for retry), 0 when none. Read from the database at scrape time; the same in every process.",
      registers,
      async collect() {
        await refresh();
        if (last.webhooks) this.set(last.webhooks.oldestUndeliveredAgeSeconds);
      },
    }),
  };
}

export type Metrics = ReturnType<typeof createMetrics>;

/**
 * The read replica's gauges, read from it (and the primary's WAL position) at scrape time: one
 * read serves the three. Unreachable, or slower than the scrape allows: up 0, the lags unchanged.
 */
function replicaGauges(read: () => Promise<ReplicaStatus>, registers: Registry[], timeoutMs: number): void {
  let round: Promise<ReplicaStatus> | undefined;
  const status = () => {
    round ??= Promise.race([
      read().catch((): ReplicaStatus => ({ reachable: false })),
      new Promise<ReplicaStatus>((resolve) =>
        setTimeout(() => resolve({ reachable: false }), timeoutMs).unref(),
      ),
    ]).finally(() => setTimeout(() => (round = undefined), 100).unref());
    return round;
  };
  new Gauge({
    name: "oisr_read_replica_up",
    help: "1 when the read replica (OISR_READ_DATABASE_URL) answered this scrape, else 0: the feeds and lists are then read from the primary.",
    registers,
    async collect() {
      this.set((await status()).reachable ? 1 : 0);
    },
  });
  new Gauge({
    name: "oisr_read_replica_lag_seconds",
    help: "Seconds since the last transaction the read replica replayed, 0 when it has replayed all it received: how stale the feeds and lists may be.",
    registers,
    async collect() {
      const { lagSeconds } = await status();
      if (lagSeconds !== undefined) this.set(lagSeconds);
    },
  });
  new Gauge({
    name: "oisr_read_replica_lag_bytes",
    help: "WAL bytes the primary has written that the read replica has not replayed yet.",
    registers,
    async collect() {
      const { lagBytes } = await status();
      if (lagBytes !== undefined) this.set(lagBytes);
    },
  });
}
