// RFC 9457 problem details, the only error body the API sends: the error both sides throw, the
// body they send for it, and the problems whose text is the same wherever they arise. The server
// and the mock keep only how they put the body on the wire (express, Fetch).
import { type FieldError, problemErrors, validationFailedDetail } from "./body-validator.ts";
import type { components } from "./generated/schema.d.ts";
import { PROBLEM_TITLES } from "./http-contract.ts";
import { MAX_BODY_DEPTH } from "./json-depth.ts";
import { describeJsonError } from "./json-error.ts";

export type ProblemCode = components["schemas"]["ProblemCode"];
export type Problem = components["schemas"]["Problem"];
/** The members a problem may carry beyond the standard ones, as the spec's `Problem` lists them. */
export type ProblemExtensions = Pick<Problem, "permission" | "api_key_id" | "expired_at">;

/** Thrown anywhere in request handling; answered as a problem by the server's or the mock's pipeline. */
export class HttpProblem extends Error {
  readonly status: number;
  readonly code: ProblemCode;
  readonly errors: FieldError[] | undefined;
  /** How many errors were found; the body lists at most 100 of `errors` (problemErrors). */
  readonly errorsTotal: number | undefined;
  readonly headers: Record<string, string>;
  /** Extension members of the body (RFC 9457 section 3.2), e.g. `permission` and `api_key_id`. */
  readonly extensions: ProblemExtensions;

  constructor(
    status: number,
    code: ProblemCode,
    detail: string,
    options: {
      errors?: FieldError[];
      errorsTotal?: number;
      headers?: Record<string, string>;
      extensions?: ProblemExtensions;
    } = {},
  ) {
    super(detail);
    this.status = status;
    this.code = code;
    this.errors = options.errors;
    this.errorsTotal = options.errorsTotal;
    this.headers = options.headers ?? {};
    this.extensions = options.extensions ?? {};
  }
}

export function problemBody(problem: HttpProblem, traceId: string): Problem {
  return {
    type: `https://oisr.dev/problems/${problem.code}`,
    title: PROBLEM_TITLES[problem.code] ?? "Error",
    status: problem.status,
    detail: problem.message,
    trace_id: traceId,
    code: problem.code,
    ...problem.extensions,
    ...(problem.errors ? problemErrors(problem.errors, problem.errorsTotal) : {}),
  };
}

export const notFound = (detail = "No such resource or path.") => new HttpProblem(404, "not_found", detail);

/** The 404 text for a path outside the API's `/v2` that is no service route (`GET /orders` at the origin). */
export const UNVERSIONED_PATH_DETAIL = "No such path. API paths start with /v2 (e.g. /v2/orders).";

/** 404 for a path outside `/v2` (and not /healthz, /readyz, /docs…): says where the API's paths are. */
export const unversionedPathNotFound = () => notFound(UNVERSIONED_PATH_DETAIL);

/** 404 for GET /orders/{identifier}: no order of the account has that server id or external_id. */
export const orderNotFound = (identifier: string) =>
  notFound(`No order with id or external_id "${identifier}".`);

/** 404 for GET /returns/{return_id}: no return of the account has that server id or external_id. */
export const returnNotFound = (identifier: string) =>
  notFound(`No return with id or external_id "${identifier}".`);

/** 404 for dispositions sent to a return server id (`ret_…`) the account does not hold. */
export const ingestReturnNotFound = (returnId: string) => notFound(`No return ${returnId} in this account.`);

export const validationFailed = (errors: FieldError[], total = errors.length) =>
  new HttpProblem(400, "validation_failed", validationFailedDetail(total), { errors, errorsTotal: total });

export const invalidJson = (detail = "The request body is not valid JSON.") =>
  new HttpProblem(400, "invalid_json", detail);

/**
 * 400 invalid_json for a body `text` JSON.parse refused, naming where it broke: "The request body
 * is not valid JSON: Unexpected token } at line 3, column 5." (the position is found by
 * describeJsonError, the same on every runtime, not read from the parser's message).
 */
export const invalidJsonAt = (text: string) => {
  const where = describeJsonError(text);
  return where ? invalidJson(`The request body is not valid JSON: ${where}.`) : invalidJson();
};

/** 400 for a body nested deeper than MAX_BODY_DEPTH, refused before it is parsed. */
export const bodyTooDeep = () => invalidJson(`The request body nests deeper than ${MAX_BODY_DEPTH} levels.`);

export const payloadTooLarge = () =>
  new HttpProblem(413, "payload_too_large", "The request body exceeds 5 MiB.");

export const unsupportedMediaType = () =>
  new HttpProblem(415, "unsupported_media_type", "Send the body as application/json.");

export const internalError = () => new HttpProblem(500, "internal_error", "An unexpected error occurred.");

/** 401 for a call without a live token; `hadToken` tells a bad token from a missing header. */
export const unauthorized = (hadToken: boolean, headers: Record<string, string> = {}) =>
  new HttpProblem(
    401,
    "unauthorized",
    hadToken
      ? "The bearer token is unknown or revoked. API keys are created with POST /v2/api_keys by a key holding api_keys:write, or by an operator with `oisr-server accounts create`; see /docs."
      : "Send `Authorization: Bearer <token>`.",
    { headers: { "WWW-Authenticate": 'Bearer realm="oisr"', ...headers } },
  );

/** 405 for a method the path does not have; `allow` lists the ones it has, for the `Allow` header. */
export const methodNotAllowed = (method: string, allow: readonly string[]) =>
  new HttpProblem(405, "method_not_allowed", `${method.toUpperCase()} method not allowed`, {
    headers: { Allow: allow.map((m) => m.toUpperCase()).join(", ") },
  });

/** Why a 503 is answered: the database went away mid-call, or /readyz found it unreachable or unmigrated. */
export const SERVICE_UNAVAILABLE_DETAIL = {
  database: "The database is unavailable; retry shortly.",
  notReady: "The database is unreachable or not migrated.",
} as const;

/** 503 with the `Retry-After` (whole seconds) a client should wait. */
export const serviceUnavailable = (detail: string, retryAfterSeconds: number) =>
  new HttpProblem(503, "service_unavailable", detail, {
    headers: { "Retry-After": String(Math.max(1, Math.ceil(retryAfterSeconds))) },
  });
