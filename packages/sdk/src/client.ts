import type { paths } from "@oisr/contract/schema";
import type { Client } from "openapi-fetch";
import type { Hooks, Logger, LogLevel } from "./hooks.ts";
import type { Context } from "./internal/context.ts";
import { levelledLogger } from "./internal/log.ts";
import { createFetchClient } from "./internal/openapi-fetch.ts";
import { DEFAULT_POLL_TIMING } from "./internal/poll.ts";
import { createThrottle } from "./internal/throttle.ts";
import { activeTraceparent } from "./internal/traceparent.ts";
import { createTransport, type FetchLike } from "./internal/transport.ts";
import { type EventsResource, eventsResource } from "./resources/events.ts";
import { type InventoryResource, inventoryResource } from "./resources/inventory.ts";
import { type KeysResource, keysResource } from "./resources/keys.ts";
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
  /**
   * Where the SDK logs: `console` (the default), pino, winston… (`{ error, warn, info, debug }`).
   * Never logs the `Authorization` header or bodies.
   */
  logger?: Logger;
  /**
   * How much to log. Default: the `OISR_LOG` environment variable where there is one, else
   * `"warn"`, at which nothing is logged in normal operation. `"info"`: one line per HTTP attempt
   * (method, path, status, duration, trace id) and per retry (delay); `"debug"`: also a line
   * before each attempt.
   * @example
   * ```ts
   * createClient({ baseUrl, token, logLevel: "info" }); // to console
   * // or, without code: OISR_LOG=debug node sync.js
   * ```
   */
  logLevel?: LogLevel;
  /**
   * Called for every HTTP attempt, retries included: `onRequest` (may return a changed
   * `Request`), `onResponse`, `onRetry`. A hook that throws fails the call. See {@link Hooks}.
   * @example
   * ```ts
   * createClient({ baseUrl, token, hooks: {
   *   onResponse: ({ request, response, durationMs }) => console.log(request.method, request.url, response.status, durationMs),
   *   onRetry: ({ attempt, delayMs, status, error }) => console.warn("retrying", attempt, delayMs, status ?? error?.message),
   * } });
   * ```
   */
  hooks?: Hooks;
  /**
   * The W3C `traceparent` sent with every call that has none, so that the server's trace (its
   * `X-Trace-Id`, a request record's `trace_id`, its spans) continues yours.
   *
   * - `true` (default): the active span of OpenTelemetry, when the app registered
   *   `@opentelemetry/api` v1 (e.g. the Node SDK): read from the API's globals, so the SDK does
   *   not depend on it. No active span, no header.
   * - a function: called once per call (not per retry), in the caller's async context; its
   *   string is sent, `undefined` sends none. For other tracers, or OTel's own propagator.
   * - `false`: never.
   * @example
   * ```ts
   * import { context, propagation } from "@opentelemetry/api";
   * createClient({ baseUrl, token, traceparent: () => {
   *   const carrier: Record<string, string> = {};
   *   propagation.inject(context.active(), carrier);
   *   return carrier.traceparent;
   * } });
   * ```
   */
  traceparent?: boolean | (() => string | undefined);
}

export interface OisrClient {
  readonly orders: OrdersResource;
  readonly inventory: InventoryResource;
  readonly shipments: ShipmentsResource;
  readonly returns: ReturnsResource;
  readonly requests: RequestsResource;
  readonly webhooks: WebhooksResource;
  /** The account's events, pulled: the same objects as the webhook bodies. */
  readonly events: EventsResource;
  /** The account's API keys: create restricted keys, rotate and revoke them. */
  readonly keys: KeysResource;
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
  let base: URL;
  try {
    // A relative baseUrl ("/api/v2") is resolved as fetch resolves it in a page: against the
    // document's base URL (its location, or <base href>). Not `location`, which Deno without
    // --location throws on. A missing baseUrl becomes "http://", which is no URL on any base.
    base = new URL(options.baseUrl || "http://", globalThis.document?.baseURI);
  } catch {
    throw new TypeError("createClient: baseUrl must be absolute (https://host/v2) outside a browser");
  }
  if (!options.token) throw new TypeError("createClient: token is required");
  const baseUrl = base.href.replace(/\/+$/, "");
  const transport = createTransport({
    ...(options.fetch ? { fetch: options.fetch } : {}),
    basePath: base.pathname,
    timeoutMs: options.timeoutMs ?? 30_000,
    ...(options.maxRetries !== undefined ? { retry: { maxRetries: options.maxRetries } } : {}),
    throttle: options.throttle ? createThrottle() : undefined,
    hooks: options.hooks,
    log: levelledLogger(options.logger, options.logLevel),
    traceparent:
      typeof options.traceparent === "function"
        ? options.traceparent
        : options.traceparent === false
          ? undefined
          : activeTraceparent,
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
    events: eventsResource(ctx),
    keys: keysResource(ctx),
    raw,
  };
}
