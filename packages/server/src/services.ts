// Every store over one database, built once: `serve` hands them to the API (createApp) and the
// workers, the CLI and tests use them directly. Only what is tied to one worker's identity (its
// queue leases, a dispatcher's delivery claims) is built by that worker.
import { type Config, configWith } from "./config.ts";
import { type Database, openDatabase } from "./db/client.ts";
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
      "rateLimits" | "databasePooling" | "listenDatabaseUrl" | "cursorSecret" | "requestRetentionDays"
    >
  >;

/**
 * `rateLimits` are the deployment's defaults (OISR_RATE_LIMITS). Without `cursorSecret`, cursors
 * are signed with a key kept in the database, so every process on it reads the cursors any other
 * issued.
 */
export async function openServices(settings: ServicesConfig) {
  const config = configWith(settings);
  const database: Database = await openDatabase({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    ...(config.databasePooling ? { pooling: config.databasePooling } : {}),
    ...(config.listenDatabaseUrl ? { listenUrl: config.listenDatabaseUrl } : {}),
    partitionIntervalMs: partitionIntervalMs(config.requestRetentionDays),
  });
  const cursorSecret =
    config.cursorSecret ??
    (await sharedSecret(database, "cursor").catch(async (err: unknown) => {
      await database.close();
      throw err;
    }));
  const requests = createRequestStore(database);
  return {
    database,
    accounts: createAccountStore(database, config.rateLimits),
    apiKeys: createApiKeyStore(database),
    requests,
    resources: createResourceStore(database),
    events: createEventStore(database, config.requestRetentionDays),
    webhookSubscriptions: createSubscriptionStore(database),
    webhookDeliveries: createDeliveryHistory(database),
    cursors: createCursors(cursorSecret),
    metrics: createMetrics({ queue: requests.stats, webhooks: () => readWebhookLag(database) }),
    /** One retention pass now (partitions/retention.ts): `oisr-server retention run`, tests, benchmarks. */
    retention: {
      run: (now?: Date) => runRetentionPass(database, { retentionDays: config.requestRetentionDays, now }),
    },
  };
}

export type Services = Awaited<ReturnType<typeof openServices>>;
