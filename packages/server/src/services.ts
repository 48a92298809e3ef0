// Every store over one database, built once: `serve` hands them to the API (createApp) and the
// workers, the CLI and tests use them directly. Only what is tied to one worker's identity (its
// queue leases, a dispatcher's delivery claims) is built by that worker.
import { type Config, configWith, READ_REPLICA_NEEDS_POSTGRES } from "./config.ts";
import { type Database, openDatabase } from "./db/client.ts";
import { openReadSource, primaryReads, type ReadSource } from "./db/read-source.ts";
import { createCursors } from "./http/cursor.ts";
import { createMetrics } from "./metrics.ts";
import { createEventStore } from "./outbox/index.ts";
import { partitionIntervalMs } from "./partitions/plan.ts";
import { runRetentionPass } from "./partitions/retention.ts";
import { createRequestStore } from "./queue/index.ts";
import { createAccountStore } from "./store/accounts.ts";
import { createApiKeyStore } from "./store/api-keys.ts";
import { createResourceStore } from "./store/resources.ts";
import { sharedSecret } from "./store/secrets.ts";
import { createDeliveryHistory, createSubscriptionStore, readWebhookLag } from "./webhooks/sql/index.ts";

/** The database, and any setting to change from its default (config.ts configWith fills in the rest). */
export type ServicesConfig = Pick<Config, "databaseUrl" | "dataDir"> &
  Partial<
    Pick<
      Config,
      | "rateLimits"
      | "databasePooling"
      | "databasePoolSize"
      | "listenDatabaseUrl"
      | "readDatabaseUrl"
      | "cursorSecret"
      | "requestRetentionDays"
    >
  >;

/**
 * `rateLimits` are the deployment's defaults (OISR_RATE_LIMITS). Without `cursorSecret`, cursors
 * are signed with a key kept in the database, so every process on it reads the cursors any other
 * issued.
 */
export async function openServices(settings: ServicesConfig) {
  const config = configWith(settings);
  if (config.readDatabaseUrl && !config.databaseUrl) throw new Error(READ_REPLICA_NEEDS_POSTGRES);
  const primary: Database = await openDatabase({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    ...(config.databasePooling ? { pooling: config.databasePooling } : {}),
    maxConnections: config.databasePoolSize,
    ...(config.listenDatabaseUrl ? { listenUrl: config.listenDatabaseUrl } : {}),
    partitionIntervalMs: partitionIntervalMs(config.requestRetentionDays),
  });
  // The feeds and lists; everything that must read its own writes stays on the primary.
  const reads: ReadSource = config.readDatabaseUrl
    ? await openReadSource(primary, config.readDatabaseUrl, {
        pooling: config.databasePooling,
        maxConnections: config.databasePoolSize,
      }).catch(async (err: unknown) => {
        await primary.close();
        throw err;
      })
    : primaryReads(primary);
  const cursorSecret =
    config.cursorSecret ??
    (await sharedSecret(primary, "cursor").catch(async (err: unknown) => {
      await reads.close().catch(() => {});
      await primary.close();
      throw err;
    }));
  // Closing the database closes the replica's connections too.
  const database: Database = {
    ...primary,
    close: async () => {
      await reads.close().catch(() => {});
      await primary.close();
    },
  };
  const requests = createRequestStore(database, reads);
  return {
    database,
    reads,
    accounts: createAccountStore(database, config.rateLimits),
    apiKeys: createApiKeyStore(database),
    requests,
    resources: createResourceStore(database, reads),
    events: createEventStore(database, config.requestRetentionDays, reads),
    webhookSubscriptions: createSubscriptionStore(database),
    webhookDeliveries: createDeliveryHistory(database),
    cursors: createCursors(cursorSecret),
    metrics: createMetrics({
      queue: requests.stats,
      webhooks: () => readWebhookLag(database),
      ...(reads.replica ? { replica: reads.replica.status } : {}),
    }),
    /** One retention pass now (partitions/retention.ts): `oisr-server retention run`, tests, benchmarks. */
    retention: {
      run: (now?: Date) => runRetentionPass(database, { retentionDays: config.requestRetentionDays, now }),
    },
  };
}

export type Services = Awaited<ReturnType<typeof openServices>>;
