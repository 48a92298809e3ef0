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
export {
  bearerToken,
  jsonTextMayHoldUnstorable,
  PROBLEM_TITLES,
  unstorableStringPointer,
} from "./http-contract.ts";
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
