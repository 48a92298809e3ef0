// Reads the process environment once; everything else receives a Config. The variables the mock
// reads too, their defaults and their parsers are @oisr/contract's (config.ts there).
import {
  DEFAULT_MAX_ATTEMPTS,
  DEFAULT_REQUEST_RETENTION_DAYS,
  DEFAULT_WEBHOOK_RETRY_SCHEDULE_TEXT,
  DEFAULT_WEBHOOK_SUBSCRIPTION_CONCURRENCY,
  type Environment,
  parseNonNegativeInteger,
  parseRetrySchedule,
  type RateLimits,
  rateLimitsWith,
  readSharedSettings,
  WEBHOOK_ATTEMPT_TIMEOUT_MS,
} from "@oisr/contract";
import { DEFAULT_POOL_SIZE } from "./db/database.ts";
import { type TelemetryConfig, telemetryConfig } from "./telemetry/settings.ts";

export type Role = "api" | "worker" | "all";

export interface Config {
  port: number;
  host: string;
  role: Role;
  /**
   * `OISR_METRICS_PORT`: a second listener, on `host`, for GET /metrics, /healthz and /readyz, in
   * any role (a worker-only process has no other). Set, /metrics leaves the API port; unset, a
   * process with the API serves /metrics there and a worker-only one serves none.
   */
  metricsPort: number | undefined;
  databaseUrl: string | undefined;
  /** `transaction` when DATABASE_URL goes through a transaction pooler (PgBouncer); see db/postgres.ts. */
  databasePooling: "none" | "transaction";
  /** Direct or session-pooled URL for LISTEN under transaction pooling; without it, short polling. */
  listenDatabaseUrl: string | undefined;
  /**
   * `OISR_DATABASE_POOL_SIZE` (default 10): connections this process opens to DATABASE_URL at most,
   * and to OISR_READ_DATABASE_URL (LISTEN takes one more). A worker's stages each hold one for their
   * transaction, two per account it leases while they pipeline: below 2 × OISR_WORKER_CONCURRENCY +
   * 2 they wait for one another (server.ts warns). Embedded PGlite has one connection whatever it says.
   */
  databasePoolSize: number;
  /**
   * `OISR_READ_DATABASE_URL`: a streaming replica of DATABASE_URL for the reads that tolerate lag
   * (db/read-source.ts, docs/decisions/021); pooled the same way as DATABASE_URL.
   */
  readDatabaseUrl: string | undefined;
  dataDir: string;
  logLevel: string;
  rateLimits: RateLimits;
  maxAttempts: number;
  workerConcurrency: number;
  /**
   * `OISR_STAGE_YIELD` (`on` by default): a worker keeps one slot for accounts with short work, and
   * busy accounts' stages shrink while short work runs or waits (decision 017). `off` gives every
   * slot to any account and keeps full stages whatever waits: busy accounts' drain rate over a quiet
   * one's latency; the fairness benchmark's same-run baseline.
   */
  stageYield: boolean;
  /** Lease a worker holds on a request; a worker that dies is replaced after it. */
  leaseMs: number;
  /** First retry delay of a request after a transient failure; doubles per attempt. */
  retryBaseMs: number;
  /** Lock wait allowed to the apply transaction before it counts as a transient failure. */
  applyLockTimeoutMs: number;
  requestRetentionDays: number;
  webhookAllowPrivateNetworks: boolean;
  /** Delays before each webhook retry after the immediate first attempt. */
  webhookRetrySchedule: number[];
  /** Delivery attempts to one subscription in flight at once, across every dispatcher (1–100). */
  webhookSubscriptionConcurrency: number;
  /**
   * Lease a dispatcher holds on a webhook attempt; a dispatcher that dies is replaced after it.
   * Unset: the attempt timeout + 50 s. A shorter lease also shortens the attempt timeout (half the lease).
   */
  webhookLeaseMs: number | undefined;
  /** Request bodies over 1 MiB read, parsed and validated at once per process; more get 503. */
  maxLargeBodies: number;
  /** Key that signs page cursors (`OISR_CURSOR_SECRET`); unset: generated once and kept in the database. */
  cursorSecret: string | undefined;
  /** Validate responses against the spec (on in tests). */
  validateResponses: boolean;
  /** Time a client gets to send a request's headers (server.headersTimeout); ≤ requestTimeoutMs. */
  headersTimeoutMs: number;
  /** Time a client gets to send a whole request, body included (server.requestTimeout). */
  requestTimeoutMs: number;
  /** Idle time before an unused keep-alive connection is closed (server.keepAliveTimeout). */
  keepAliveTimeoutMs: number;
  /** Open connections accepted at once by the API (server.maxConnections); more are dropped. */
  maxConnections: number;
  /** OpenTelemetry (the standard OTEL_* variables): off unless an OTLP endpoint is set. */
  telemetry: TelemetryConfig;
}

function int(value: string | undefined, fallback: number, name: string): number {
  return parseNonNegativeInteger(value, name) ?? fallback;
}

function onOff(value: string | undefined, name: string): boolean {
  if (value === undefined || value === "" || value === "on") return true;
  if (value === "off") return false;
  throw new Error(`${name} must be on or off`);
}

function poolSize(value: string | undefined): number {
  const size = int(value, DEFAULT_POOL_SIZE, "OISR_DATABASE_POOL_SIZE");
  if (size < 1) throw new Error("OISR_DATABASE_POOL_SIZE must be at least 1");
  return size;
}

/** Connections a process with workers wants at least: two per leased account (pipelined stages), two for the rest. */
export const poolSizeWanted = (config: Pick<Config, "workerConcurrency">): number =>
  2 * config.workerConcurrency + 2;

function pooling(value: string | undefined): Config["databasePooling"] {
  if (value === undefined || value === "" || value === "none") return "none";
  if (value === "transaction") return "transaction";
  throw new Error(`OISR_DATABASE_POOLING must be none or transaction`);
}

/**
 * A configuration from the settings given and every other one at its default: what a process with
 * no OISR_* variable set would run with. Tests and embedders use it, so no caller re-applies a
 * default of its own.
 */
export function configWith(settings: Partial<Config>): Config {
  // A setting given as undefined is left out, not set: it keeps its default.
  const given = Object.fromEntries(Object.entries(settings).filter(([, value]) => value !== undefined));
  return { ...loadConfig({}), ...given };
}

/**
 * The webhook attempt's lease and timeout: OISR_WEBHOOK_LEASE_MS, else the contract's attempt
 * timeout plus 50 s, so a lease runs out only when its dispatcher died. A shorter lease shortens the
 * timeout too (half the lease, at most the contract's), so an attempt never outlives its lease.
 */
export function webhookTiming(config: Pick<Config, "webhookLeaseMs">): {
  leaseMs: number;
  timeoutMs: number;
} {
  if (!config.webhookLeaseMs)
    return { leaseMs: WEBHOOK_ATTEMPT_TIMEOUT_MS + 50_000, timeoutMs: WEBHOOK_ATTEMPT_TIMEOUT_MS };
  return {
    leaseMs: config.webhookLeaseMs,
    timeoutMs: Math.min(WEBHOOK_ATTEMPT_TIMEOUT_MS, Math.ceil(config.webhookLeaseMs / 2)),
  };
}

/** A replica needs a PostgreSQL primary: embedded PGlite has none to replicate. */
export const READ_REPLICA_NEEDS_POSTGRES =
  "OISR_READ_DATABASE_URL needs DATABASE_URL: a read replica is a streaming replica of a PostgreSQL server, and embedded PGlite (no DATABASE_URL) has none";

export function loadConfig(env: Environment = process.env): Config {
  const role = (env.OISR_ROLE ?? "all") as Role;
  if (!["api", "worker", "all"].includes(role)) throw new Error(`OISR_ROLE must be api, worker or all`);
  const headersTimeoutMs = int(env.OISR_HEADERS_TIMEOUT_MS, 10_000, "OISR_HEADERS_TIMEOUT_MS");
  const requestTimeoutMs = int(env.OISR_REQUEST_TIMEOUT_MS, 30_000, "OISR_REQUEST_TIMEOUT_MS");
  // Node refuses a headers timeout longer than the request timeout (0 turns either off).
  if (headersTimeoutMs > 0 && requestTimeoutMs > 0 && headersTimeoutMs > requestTimeoutMs) {
    throw new Error("OISR_HEADERS_TIMEOUT_MS must not exceed OISR_REQUEST_TIMEOUT_MS");
  }
  const shared = readSharedSettings(env);
  if (env.OISR_READ_DATABASE_URL && !env.DATABASE_URL) throw new Error(READ_REPLICA_NEEDS_POSTGRES);
  return {
    port: int(env.PORT, 8080, "PORT"),
    host: env.HOST ?? "127.0.0.1",
    role,
    metricsPort: parseNonNegativeInteger(env.OISR_METRICS_PORT, "OISR_METRICS_PORT"),
    databaseUrl: env.DATABASE_URL || undefined,
    databasePooling: pooling(env.OISR_DATABASE_POOLING),
    listenDatabaseUrl: env.OISR_LISTEN_DATABASE_URL || undefined,
    databasePoolSize: poolSize(env.OISR_DATABASE_POOL_SIZE),
    readDatabaseUrl: env.OISR_READ_DATABASE_URL || undefined,
    dataDir: env.OISR_DATA_DIR ?? "./.oisr-data",
    logLevel: env.LOG_LEVEL ?? "info",
    rateLimits: rateLimitsWith(shared.rateLimits),
    maxAttempts: shared.maxAttempts ?? DEFAULT_MAX_ATTEMPTS,
    workerConcurrency: int(env.OISR_WORKER_CONCURRENCY, 4, "OISR_WORKER_CONCURRENCY") || 1,
    stageYield: onOff(env.OISR_STAGE_YIELD, "OISR_STAGE_YIELD"),
    leaseMs: int(env.OISR_LEASE_MS, 30_000, "OISR_LEASE_MS"),
    retryBaseMs: shared.retryBaseMs ?? 1000,
    applyLockTimeoutMs: int(env.OISR_APPLY_LOCK_TIMEOUT_MS, 10_000, "OISR_APPLY_LOCK_TIMEOUT_MS"),
    requestRetentionDays: shared.requestRetentionDays ?? DEFAULT_REQUEST_RETENTION_DAYS,
    webhookAllowPrivateNetworks: shared.webhookAllowPrivateNetworks ?? false,
    webhookRetrySchedule: parseRetrySchedule(
      env.OISR_WEBHOOK_RETRY_SCHEDULE ?? DEFAULT_WEBHOOK_RETRY_SCHEDULE_TEXT,
    ),
    webhookSubscriptionConcurrency:
      shared.webhookSubscriptionConcurrency ?? DEFAULT_WEBHOOK_SUBSCRIPTION_CONCURRENCY,
    webhookLeaseMs: int(env.OISR_WEBHOOK_LEASE_MS, 0, "OISR_WEBHOOK_LEASE_MS") || undefined,
    maxLargeBodies: int(env.OISR_MAX_LARGE_BODIES, 4, "OISR_MAX_LARGE_BODIES") || 1,
    cursorSecret: env.OISR_CURSOR_SECRET || undefined,
    validateResponses: env.OISR_VALIDATE_RESPONSES === "1",
    headersTimeoutMs,
    requestTimeoutMs,
    keepAliveTimeoutMs: int(env.OISR_KEEP_ALIVE_TIMEOUT_MS, 5000, "OISR_KEEP_ALIVE_TIMEOUT_MS"),
    maxConnections: int(env.OISR_MAX_CONNECTIONS, 1000, "OISR_MAX_CONNECTIONS"),
    telemetry: telemetryConfig(env),
  };
}
