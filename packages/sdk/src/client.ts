import type { paths } from "@oisr/contract/schema";
import type { Client } from "openapi-fetch";
import type { Context } from "./internal/context.ts";
import { createFetchClient } from "./internal/openapi-fetch.ts";
import { DEFAULT_POLL_TIMING } from "./internal/poll.ts";
import { createThrottle } from "./internal/throttle.ts";
import { createTransport, type FetchLike } from "./internal/transport.ts";
import { type InventoryResource, inventoryResource } from "./resources/inventory.ts";
import { type OrdersResource, ordersResource } from "./resources/orders.ts";
import { type RequestsResource, requestsResource } from "./resources/requests.ts";
import { type ReturnsResource, returnsResource } from "./resources/returns.ts";
import { type ShipmentsResource, shipmentsResource } from "./resources/shipments.ts";
import { type WebhooksResource, webhooksResource } from "./resources/webhooks.ts";

export interface ClientOptions {
  /** The API root including the version, e.g. `https://api.example.com/v2`. */
  baseUrl: string;
  /** An account token (`oisr_…`), sent as `Authorization: Bearer <token>`. */
  token: string;
  /** A fetch to use instead of the global one (tests, proxies, instrumentation). Receives a `Request`. */
  fetch?: FetchLike;
  /** Retries after the first attempt for 408, 429, 5xx, network errors and timeouts. Default 3; 0 disables. */
  maxRetries?: number;
  /** Per-attempt timeout until the response head arrives, ms. Default 30 000; 0 disables. */
  timeoutMs?: number;
  /**
   * Pace calls from the `X-RateLimit-*` headers so that bursts wait for a slot instead of earning
   * 429s. State is per scope and shared by every call of this client: create one client and
   * share it. Default false (429s are still retried after `Retry-After`).
   */
  throttle?: boolean;
}

export interface OisrClient {
  readonly orders: OrdersResource;
  readonly inventory: InventoryResource;
  readonly shipments: ShipmentsResource;
  readonly returns: ReturnsResource;
  readonly requests: RequestsResource;
  readonly webhooks: WebhooksResource;
  /**
   * The underlying typed openapi-fetch client, for anything the helpers do not cover. It shares
   * the retries, timeouts, idempotency keys, throttle and auth; it returns `{ data, error, response }`
   * instead of throwing on error statuses.
   * @example
   * ```ts
   * const { data, error } = await client.raw.GET("/orders/{identifier}", { params: { path: { identifier: "A-1" } } });
   * client.raw.use({ onRequest: ({ request }) => void console.debug(request.method, request.url) });
   * ```
   */
  readonly raw: Client<paths>;
}

/**
 * Creates an OISR API client.
 *
 * @example
 * ```ts
 * import { createClient } from "@oisr/sdk";
 *
 * const client = createClient({ baseUrl: "https://api.example.com/v2", token: process.env.OISR_TOKEN!, throttle: true });
 * const record = await client.orders.ingestAndWait([order]);
 * console.log(record.result?.items);
 * ```
 */
export function createClient(options: ClientOptions): OisrClient {
  if (!options?.baseUrl)
    throw new TypeError("createClient: baseUrl is required (e.g. https://api.example.com/v2)");
  if (!options.token) throw new TypeError("createClient: token is required");
  const baseUrl = options.baseUrl.replace(/\/+$/, "");
  const transport = createTransport({
    ...(options.fetch ? { fetch: options.fetch } : {}),
    basePath: new URL(baseUrl).pathname,
    timeoutMs: options.timeoutMs ?? 30_000,
    ...(options.maxRetries !== undefined ? { retry: { maxRetries: options.maxRetries } } : {}),
    throttle: options.throttle ? createThrottle() : undefined,
  });
  const raw = createFetchClient<paths>({
    baseUrl,
    fetch: (request) => transport(request),
    headers: { Authorization: `Bearer ${options.token}` },
  });
  const ctx: Context = { raw, transport, pollTiming: DEFAULT_POLL_TIMING };
  return {
    orders: ordersResource(ctx),
    inventory: inventoryResource(ctx),
    shipments: shipmentsResource(ctx),
    returns: returnsResource(ctx),
    requests: requestsResource(ctx),
    webhooks: webhooksResource(ctx),
    raw,
  };
}
