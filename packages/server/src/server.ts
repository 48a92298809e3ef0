// Starts the roles of one process (API, workers or both) over one database, and stops them cleanly.
import type { AddressInfo } from "node:net";
import type { Logger } from "pino";
import { createApp } from "./app.ts";
import type { Config } from "./config.ts";
import { createCursors } from "./http/cursor.ts";
import { createLogger } from "./logger.ts";
import { webhookRoutes } from "./routes/webhooks.ts";
import { openServices, type Services } from "./services.ts";
import { loadSpec } from "./spec.ts";
import { sharedSecret } from "./store/secrets.ts";
import { startTracing } from "./telemetry/tracing.ts";
import { startDispatcher } from "./webhooks/dispatcher.ts";
import { startWorker } from "./worker/worker.ts";

export interface RunningServer {
  /** Base URL of the API, ending in /v2 (undefined for a worker-only process). */
  url: string | undefined;
  origin: string | undefined;
  services: Services;
  logger: Logger;
  /** Stops accepting, lets in-flight work finish or releases it, closes the database. */
  close(): Promise<void>;
}

export async function startServer(config: Config, options: { logger?: Logger } = {}): Promise<RunningServer> {
  const logger = options.logger ?? createLogger(config.logLevel);
  const services = await openServices(config);
  // Before any role starts, so their first spans are recorded; flushed after everything has stopped.
  const tracing = await startTracing(config.telemetry, logger);
  const stops: (() => Promise<void>)[] = [];
  let url: string | undefined;
  let origin: string | undefined;

  if (config.role !== "api") {
    const worker = await startWorker({ config, logger, services });
    stops.push(() => worker.stop());
    const dispatcher = await startDispatcher({
      config,
      logger,
      database: services.database,
      // Attempts and outbox events follow the request records' retention (30 days by default).
      retentionMs: config.requestRetentionDays * 86_400_000,
      ...(config.webhookLeaseMs
        ? {
            leaseMs: config.webhookLeaseMs,
            timeoutMs: Math.min(10_000, Math.ceil(config.webhookLeaseMs / 2)),
          }
        : {}),
      onAttempt: (outcome) => services.metrics.webhookDeliveries.inc({ outcome }),
    });
    stops.push(() => dispatcher.stop());
  }
  if (config.role !== "worker") {
    const cursors = createCursors(config.cursorSecret ?? (await sharedSecret(services.database, "cursor")));
    const app = createApp({
      config,
      logger,
      spec: loadSpec(),
      cursors,
      ...services,
      extraRoutes: [webhookRoutes({ database: services.database, config })],
    });
    const server = app.listen(config.port, config.host);
    // Slow or idle clients must not hold connections: bounded header, request and keep-alive times.
    server.headersTimeout = config.headersTimeoutMs;
    server.requestTimeout = config.requestTimeoutMs;
    server.keepAliveTimeout = config.keepAliveTimeoutMs;
    if (config.maxConnections > 0) server.maxConnections = config.maxConnections;
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
    const { port } = server.address() as AddressInfo;
    services.database.setLockPort?.(port);
    origin = `http://${config.host}:${port}`;
    url = `${origin}/v2`;
    // Stop the listener first so no new call is accepted while the rest shuts down.
    stops.unshift(
      () =>
        new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeIdleConnections();
        }),
    );
  }

  let closing: Promise<void> | undefined;
  return {
    url,
    origin,
    services,
    logger,
    close: () => {
      closing ??= (async () => {
        for (const stop of stops) await stop();
        await services.database.close();
        await tracing?.shutdown();
      })();
      return closing;
    },
  };
}
