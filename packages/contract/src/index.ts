// Public API of @oisr/contract: the HTTP contract as the server, the mock, the CLI and the SDK
// state it — one implementation each (issue 16). Browser-safe: no `node:` imports, no I/O.

export { base64, base64url, fromBase64 } from "./base64.ts";
export {
  type BodyOptions,
  type BodyProblems,
  BodyValidator,
  createSpecAjv,
  escapeToken,
  type FieldError,
  MAX_COUNTED_ERRORS,
  MAX_REPORTED_ERRORS,
  problemErrors,
  toFieldErrors,
  unstorableCharacterError,
  validationFailedDetail,
} from "./body-validator.ts";
export {
  checkRateLimits,
  DAY_MS,
  DEFAULT_MAX_ATTEMPTS,
  DEFAULT_REQUEST_RETENTION_DAYS,
  type Environment,
  parseDuration,
  parseNonNegativeInteger,
  parseRateLimits,
  parseSwitch,
  rateLimitsWith,
  readSharedSettings,
  type SharedSettings,
} from "./config.ts";
export {
  type AccountCursors,
  type CursorCodec,
  createCursorCodec,
  type Decoded,
  type Filters,
  invalidCursor,
} from "./cursor.ts";
export { eventFeedFilters, eventNotFound, eventTypesOf } from "./event-feed.ts";
export {
  bearerToken,
  jsonTextMayHoldUnstorable,
  PROBLEM_TITLES,
  unstorableStringPointer,
} from "./http-contract.ts";
export { HTTP_STATUS_TEXT } from "./http-status-text.ts";
export {
  bodyFingerprint,
  IDEMPOTENCY_WINDOW_MS,
  type IdempotencyDecision,
  idempotencyDecision,
  idempotencyKeyLive,
  idempotencyKeyReused,
} from "./idempotency.ts";
export { MAX_BODY_DEPTH, nestsDeeperThan } from "./json-depth.ts";
export {
  DEFAULT_LIMIT,
  feedPage,
  limitOf,
  type Page,
  type PageOptions,
  pageOf,
  stringFilters,
} from "./pages.ts";
export {
  HttpProblem,
  internalError,
  invalidJson,
  notFound,
  type Problem,
  type ProblemCode,
  payloadTooLarge,
  problemBody,
  unsupportedMediaType,
  validationFailed,
} from "./problems.ts";
export {
  DEFAULT_RATE_LIMITS,
  isRateLimitScope,
  RATE_LIMIT_SCOPES,
  RATE_LIMIT_WINDOW_SECONDS,
  type RateDecision,
  type RateLimitedProblem,
  type RateLimitHeaders,
  type RateLimitScope,
  type RateLimits,
  rateDecision,
  rateLimitedProblem,
  rateLimitHeaders,
  type ScopeCount,
  scopesFor,
} from "./rate-limits.ts";
export {
  acceptedHeaders,
  type IngestAccepted,
  type Instant,
  ingestAccepted,
  isoInstant,
  type RequestRecord,
  requestPage,
  type StoredRequest,
  toRequestRecord,
} from "./request-record.ts";
export { type OpenApiDocument, openapiDocument } from "./spec.ts";
export {
  type AddressCategory,
  classifyAddress,
  classifyWebhookUrl,
  FORBIDDEN_ADDRESS,
  forbiddenAddress,
  type IpAddress,
  ipFamily,
  refusedAddress,
  type WebhookUrlVerdict,
} from "./url-classifier.ts";
export {
  type AfterFailure,
  type AttemptResult,
  afterFailedAttempt,
  answeredAttempt,
  DEFAULT_DISABLE_POLICY,
  DEFAULT_WEBHOOK_RETRY_SCHEDULE,
  DEFAULT_WEBHOOK_RETRY_SCHEDULE_TEXT,
  type DisablePolicy,
  type FailedAttempt,
  nextAttemptDelay,
  parseRetrySchedule,
  recordedStatus,
  SECRET_ROTATION_OVERLAP_MS,
  shouldDisable,
  WEBHOOK_ATTEMPT_TIMEOUT_MS,
  WEBHOOK_GONE_STATUS,
  WEBHOOK_USER_AGENT,
} from "./webhook-policy.ts";
export {
  type DeliveryTrigger,
  deliveryNotFound,
  RECOVERY_BATCH_SIZE,
  type RecoveryRecord,
  type RecoveryWindow,
  recoveryLocation,
  recoveryNotFound,
  recoveryWindow,
  retryRefused,
  subscriptionDisabled,
  toWebhookRecovery,
  type WebhookRecovery,
  type WebhookRecoveryCreate,
} from "./webhook-recovery.ts";
export {
  generateWebhookSecret,
  type SignedWebhookHeaders,
  signedWebhookHeaders,
  signWebhook,
  verifyWebhookSignature,
  WEBHOOK_SECRET_BYTES,
  WEBHOOK_SECRET_PREFIX,
  type WebhookPayloadBytes,
  type WebhookSecrets,
  type WebhookSignatureInput,
  webhookSecretKey,
  webhookTimestamp,
} from "./webhook-signing.ts";
export {
  type DeliveryRecord,
  type SubscriptionChange,
  type SubscriptionRecord,
  subscriptionChange,
  subscriptionNotFound,
  TEST_EVENT_TYPE,
  testEventObject,
  toWebhookDelivery,
  toWebhookSubscription,
  uniqueEvents,
  type WebhookDelivery,
  type WebhookEventBody,
  type WebhookSubscription,
  type WebhookSubscriptionUpdate,
  type WebhookSubscriptionWithSecret,
  webhookEventBody,
  webhookUrlNotAllowed,
} from "./webhook-subscription.ts";
