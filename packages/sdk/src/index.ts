// Public API of @oisr/sdk. Everything not exported here (src/internal/) may change in any release.
export { type ClientOptions, createClient, type OisrClient } from "./client.ts";
export {
  ApiError,
  AuthenticationError,
  ConflictError,
  ConnectionError,
  NotFoundError,
  OisrError,
  PermissionError,
  RateLimitError,
  RequestFailedError,
  TimeoutError,
  ValidationError,
  WebhookVerificationError,
} from "./errors.ts";
export type {
  Hooks,
  Logger,
  LogLevel,
  RequestHookContext,
  ResponseHookContext,
  RetryHookContext,
} from "./hooks.ts";
export type { ApiPromise, WithResponse } from "./internal/api-promise.ts";
export type { IngestAndWaitOptions, IngestOptions, RequestOptions } from "./internal/context.ts";
export type { ChangesOptions } from "./internal/paginate.ts";
export type { WaitForOptions } from "./internal/poll.ts";
export type { EventChangesOptions, EventsResource } from "./resources/events.ts";
export type { InventoryResource } from "./resources/inventory.ts";
export type { ApiKeyCreateParams, ApiKeyRotateParams, KeysResource } from "./resources/keys.ts";
export type { OrderChangesOptions, OrdersResource } from "./resources/orders.ts";
export type { RequestsResource } from "./resources/requests.ts";
export type { ReturnChangesOptions, ReturnsResource } from "./resources/returns.ts";
export type { ShipmentsResource } from "./resources/shipments.ts";
export type { WebhooksResource } from "./resources/webhooks.ts";
export type * from "./types.ts";
export {
  generateWebhookSecret,
  type SignedWebhook,
  type SignWebhookInput,
  signWebhook,
  type VerifyWebhookOptions,
  verifyWebhook,
  type WebhookBody,
  type WebhookHeaders,
} from "./webhooks.ts";
