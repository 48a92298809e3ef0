import type { Client, ClientOptions } from "openapi-fetch";
import openapiFetchDefault from "openapi-fetch";

type CreateClient = typeof openapiFetchDefault;

/**
 * openapi-fetch's `createClient`, which it exports only as its default export. Our CJS build
 * imports it under Node's interop rules, where "default" is the whole `module.exports` of
 * openapi-fetch's CJS build (whose own `.default` is the function); the ESM build gets the
 * function directly. Resolved inside a function so bundlers can drop openapi-fetch for apps that
 * only import `verifyWebhook`.
 */
export function createFetchClient<Paths extends {}>(options: ClientOptions): Client<Paths> {
  const imported = openapiFetchDefault as CreateClient | { default: CreateClient };
  const create = typeof imported === "function" ? imported : imported.default;
  return create<Paths>(options);
}
