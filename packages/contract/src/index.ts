// Public API of @oisr/contract: the HTTP contract as the server, the mock, the CLI and the SDK
// state it — one implementation each (issue 16). Browser-safe: no `node:` imports, no I/O.

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
  bearerToken,
  DEFAULT_RATE_LIMITS,
  jsonTextMayHoldUnstorable,
  PROBLEM_TITLES,
  RATE_LIMIT_SCOPES,
  type RateLimitScope,
  scopesFor,
  unstorableStringPointer,
} from "./http-contract.ts";
export { MAX_BODY_DEPTH, nestsDeeperThan } from "./json-depth.ts";
export { type OpenApiDocument, openapiDocument } from "./spec.ts";
