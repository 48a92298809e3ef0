// Starts the roles of one process (API, workers or both) over one database, and stops them cleanly.
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { answerClientError } from "@oisr/contract";
import type { Express } from "express";
import type { Logger } from "pino";
import { createApp, createMetricsApp } from "./app.ts";
import { type Config, poolSizeWanted } from "./config.ts";
import { startEmbeddedVacuum } from "./db/embedded-vacuum.ts";
import { createLogger } from "./logger.ts";
import { startRetention } from "./partitions/loop.ts";
import { openServices, type Services } from "./services.ts";
import { loadSpec } from "./spec.ts";
import { startTracing } from "./telemetry/tracing.ts";
import { startDispatcher } from "./webhooks/dispatcher.ts";
import { startWorker } from "./worker/worker.ts";

export interface RunningServer {
  /** Base URL of the API, ending in /v2 (undefined for a worker-only process). */
  url: string | undefined;
  origin: string | undefined;
  /** Origin of the OISR_METRICS_PORT listener (GET /metrics, /healthz, /readyz); undefined without it. */
  metricsOrigin: string | undefined;
  services: Services;
  logger: Logger;
  /** Stops accepting, lets in-flight work finish or releases it, closes the database. */
  close(): Promise<void>;
}

/**
 * Listens with bounded header, request and keep-alive times, so slow or idle clients cannot hold
 * connections; resolves once listening, with the port taken (PORT=0 picks a free one).
 */
async function listen(app: Express, port: number, config: Config): Promise<{ server: Server; port: number }> {
  const server = app.listen(port, config.host);
  // A request line and headers longer than Node reads (a 100 kB query string) is a 431
  // problem+json like every other error, not Node's bare 431; other client errors as Node answers.
  server.on("clientError", answerClientError);
  server.headersTimeout = config.headersTimeoutMs;
  server.requestTimeout = config.requestTimeoutMs;
  server.keepAliveTimeout = config.keepAliveTimeoutMs;
  // Node enforces the header and request timeouts on a sweep, every 30 s by default: sweep at a
  // quarter of the shorter one so a 10 s limit holds at 10–12.5 s. The createServer option is
  // read from this property when "listening" fires, so it must be set before then (untyped).
  const shortest = Math.min(...[config.headersTimeoutMs, config.requestTimeoutMs].filter((ms) => ms > 0));
  (server as { connectionsCheckingInterval?: number }).connectionsCheckingInterval = Math.min(
    30_000,
    Math.max(250, Math.floor(shortest / 4)),
  );
  await new Promise<void>((resolve, reject) => {
    server.once("listening", resolve);
    server.once("error", reject);
  });
  return { server, port: (server.address() as AddressInfo).port };
}

/** Stops accepting connections; resolves once the open ones have ended (idle ones are closed now). */
const stopListening = (server: Server) => () =>
  new Promise<void>((resolve) => {
    server.close(() => resolve());
    server.closeIdleConnections();
  });

export async function startServer(config: Config, options: { logger?: Logger } = {}): Promise<RunningServer> {
  const logger = options.logger ?? createLogger(config.logLevel);
  const services = await openServices(config);
  if (config.role !== "api" && config.databaseUrl && config.databasePoolSize < poolSizeWanted(config))
    logger.warn(
      {
        poolSize: config.databasePoolSize,
        wanted: poolSizeWanted(config),
        workerConcurrency: config.workerConcurrency,
      },
      "OISR_DATABASE_POOL_SIZE is below 2 × OISR_WORKER_CONCURRENCY + 2: the workers' stages will wait for connections",
    );
  // Before any role starts, so their first spans are recorded; flushed after everything has stopped.
  const tracing = await startTracing(config.telemetry, logger);
  const stops: (() => Promise<void>)[] = [];
  let url: string | undefined;
  let origin: string | undefined;
  let metricsOrigin: string | undefined;

  // Every role: partitions must be made ahead wherever calls are accepted (partitions/loop.ts).
  const retention = startRetention({
    database: services.database,
    retentionDays: config.requestRetentionDays,
    logger,
    onPass: (pass) => {
      for (const [table, done] of Object.entries(pass.tables)) {
        services.metrics.retentionPartitionsDropped.inc({ table }, done.dropped.length);
        services.metrics.retentionRowsDropped.inc({ table }, done.rows_dropped);
        if (done.error) services.metrics.retentionFailures.inc({ table });
      }
    },
  });
  stops.push(() => retention.stop());
  // PGlite only: it has no autovacuum (db/embedded-vacuum.ts).
  const vacuum = await startEmbeddedVacuum({
    database: services.database,
    logger,
    onPass: (pass) => {
      services.metrics.embeddedVacuumTables.inc({ action: "vacuum" }, pass.vacuumed.length);
      services.metrics.embeddedVacuumTables.inc({ action: "analyze" }, pass.analyzed.length);
      services.metrics.embeddedVacuumSeconds.inc(pass.ms / 1000);
    },
    onFailure: () => services.metrics.embeddedVacuumFailures.inc(),
  });
  stops.push(() => vacuum.stop());
  if (config.role !== "api") {
    const worker = await startWorker({ config, logger, services });
    stops.push(() => worker.stop());
    const dispatcher = await startDispatcher({
      config,
      logger,
      database: services.database,
      onAttempt: (outcome) => services.metrics.webhookDeliveries.inc({ outcome }),
    });
    stops.push(() => dispatcher.stop());
  }
  if (config.role !== "worker") {
    const app = createApp({ config, logger, spec: loadSpec(), ...services });
    const { server, port } = await listen(app, config.port, config);
    if (config.maxConnections > 0) server.maxConnections = config.maxConnections;
    services.database.setLockPort?.(port);
    origin = `http://${config.host}:${port}`;
    url = `${origin}/v2`;
    // Stop the listener first so no new call is accepted while the rest shuts down.
    stops.unshift(stopListening(server));
  }
  if (config.metricsPort !== undefined) {
    const { server, port } = await listen(
      createMetricsApp({ ...services, logger }),
      config.metricsPort,
      config,
    );
    metricsOrigin = `http://${config.host}:${port}`;
    // Last to stop: the counters stay readable while the roles wind down.
    stops.push(stopListening(server));
  }

  let closing: Promise<void> | undefined;
  return {
    url,
    origin,
    metricsOrigin,
    services,
    logger,
    close: () => {
      closing ??= (async () => {
        for (const stop of stops) await stop();
        // The last_used_at values queued in the last second (store/last-used.ts).
        await services.accounts.flush();
        await services.database.close();
        await tracing?.shutdown();
      })();
      return closing;
    },
  };
}
