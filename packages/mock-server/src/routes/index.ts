// The route table: the handler of every authenticated operation of the spec, by operation id.
// `satisfies RouteTable` makes a missing handler, or one typed for another operation, a compile
// error; each module's `satisfies Partial<RouteTable>` refuses a misspelt operation id.
import { apiKeyRoutes } from "./api-keys.ts";
import type { RouteTable } from "./context.ts";
import { eventRoutes } from "./events.ts";
import { feedRoutes } from "./feeds.ts";
import { ingestRoutes } from "./ingest.ts";
import { requestRetryRoutes } from "./request-retry.ts";
import { requestRoutes } from "./requests.ts";
import { webhookRoutes } from "./webhooks.ts";

export const routes = {
  ...ingestRoutes,
  ...feedRoutes,
  ...requestRoutes,
  ...requestRetryRoutes,
  ...webhookRoutes,
  ...eventRoutes,
  ...apiKeyRoutes,
} satisfies RouteTable;
