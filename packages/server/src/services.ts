// Wires stores over one database; shared by `serve`, the CLI and tests.
import type { Config } from "./config.ts";
import { type Database, openDatabase } from "./db/client.ts";
import { createMetrics } from "./metrics.ts";
import { createRequestStore } from "./queue/index.ts";
import { createAccountStore } from "./store/accounts.ts";
import { createResourceStore } from "./store/resources.ts";
import { readWebhookLag } from "./webhooks/deliveries-store.ts";

/** `rateLimits` are the deployment's defaults (OISR_RATE_LIMITS); without them, the contract's. */
export async function openServices(
  config: Pick<Config, "databaseUrl" | "dataDir"> &
    Partial<Pick<Config, "rateLimits" | "databasePooling" | "listenDatabaseUrl">>,
) {
  const database: Database = await openDatabase({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    ...(config.databasePooling ? { pooling: config.databasePooling } : {}),
    ...(config.listenDatabaseUrl ? { listenUrl: config.listenDatabaseUrl } : {}),
  });
  const requests = createRequestStore(database);
  return {
    database,
    accounts: createAccountStore(database, config.rateLimits),
    requests,
    resources: createResourceStore(database),
    metrics: createMetrics({ queue: requests.stats, webhooks: () => readWebhookLag(database) }),
  };
}

export type Services = Awaited<ReturnType<typeof openServices>>;
