// @oisr/mock-server: a stateful msw mock of the OISR ingest API v2.
export type { ClockOptions, MockClock } from "./clock.ts";
export { createMock } from "./mock.ts";
export type { MockOptions, WebhookOptions } from "./options.ts";
export { DEFAULT_BASE_URL, mockOptionsFromEnv } from "./options.ts";
export type {
  AccountView,
  FailNextOptions,
  Mock,
  MockControls,
  MockRequest,
  MockStoreView,
  SeedData,
  SeedOptions,
} from "./public-types.ts";
export { MOCK_TOKEN } from "./public-types.ts";
export type { RateLimitScope, RateLimits } from "./store/rate-limit.ts";
export { DEFAULT_RATE_LIMITS, RATE_LIMIT_SCOPES } from "./store/rate-limit.ts";
export type {
  ApiKey,
  DispositionInput,
  InventoryLevel,
  InventorySnapshotInput,
  ItemError,
  Order,
  OrderInput,
  OrderShipment,
  Permission,
  RequestKind,
  RequestRecord,
  RequestStatus,
  Return,
  ReturnInput,
  Shipment,
  ShipmentInput,
  WebhookEventBody,
  WebhookSubscription,
} from "./types.ts";
