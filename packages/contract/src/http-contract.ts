// Contract facts the server and the mock must state identically: problem titles (decision 001),
// the headers browsers may read, the strings PostgreSQL cannot store, and the bearer token's
// syntax. Rate-limit scopes are in rate-limits.ts.
import type { components } from "./generated/schema.d.ts";

type ProblemCode = components["schemas"]["ProblemCode"];

/**
 * The response headers browser code may read across origins (CORS `Access-Control-Expose-Headers`):
 * the rate-limit and trace headers to pace and report, `Location` and `Idempotent-Replayed` of a
 * 202, and `WWW-Authenticate`, whose `scope` names the permission a 403 lacks.
 */
export const EXPOSED_HEADERS = [
  "X-Trace-Id",
  "X-RateLimit-Limit",
  "X-RateLimit-Remaining",
  "X-RateLimit-Reset",
  "Retry-After",
  "Location",
  "Idempotent-Replayed",
  "Date",
  "WWW-Authenticate",
] as const;

/** The title of each problem code (decision 001): a code without one does not compile. */
export const PROBLEM_TITLES: Readonly<Record<ProblemCode, string>> = {
  invalid_json: "Malformed JSON",
  validation_failed: "Request does not match the API schema",
  invalid_cursor: "Invalid cursor",
  unauthorized: "Authentication required",
  not_found: "Not found",
  method_not_allowed: "Method not allowed",
  payload_too_large: "Payload too large",
  unsupported_media_type: "Unsupported media type",
  request_header_fields_too_large: "Request header fields too large",
  idempotency_key_reused: "Idempotency key reused with a different body",
  subscription_disabled: "Subscription disabled",
  request_not_retryable: "Request not retryable",
  insufficient_permission: "Insufficient permission",
  api_key_expired: "API key expired",
  api_key_inactive: "API key inactive",
  last_admin_key: "Last admin key",
  rate_limited: "Rate limit exceeded",
  internal_error: "Internal server error",
  service_unavailable: "Service unavailable",
};

/**
 * The JSON Pointer of the first string (value or member name) that PostgreSQL cannot store in
 * `jsonb`: one holding U+0000 or a lone UTF-16 surrogate. Such a body is schema-valid JSON, so the
 * server and the mock refuse it explicitly (400 validation_failed) rather than fail on storage.
 * When the body's JSON text is at hand, `jsonTextMayHoldUnstorable` clears almost every body
 * without walking it.
 */
export function unstorableStringPointer(value: unknown): string | null {
  // The walk that builds pointers costs ~50 ms on a 5 MB body; a plain scan finds nothing in most.
  if (!holdsSuspect(value)) return null;
  return walk(value, "");
}

/** Whether JSON text may hold a string PostgreSQL cannot store: `false` is certain, `true` is a maybe. */
export function jsonTextMayHoldUnstorable(text: string): boolean {
  return MAYBE_UNSTORABLE.test(text);
}

/** Whether any string (value or member name) holds U+0000 or a surrogate, paired or not. */
function holdsSuspect(value: unknown): boolean {
  if (typeof value === "string") return SUSPECT.test(value);
  if (value === null || typeof value !== "object") return false;
  if (Array.isArray(value)) {
    for (const child of value) if (holdsSuspect(child)) return true;
    return false;
  }
  for (const key in value) {
    if (SUSPECT.test(key) || holdsSuspect((value as Record<string, unknown>)[key])) return true;
  }
  return false;
}

function walk(value: unknown, pointer: string): string | null {
  if (typeof value === "string") return UNSTORABLE.test(value) ? pointer : null;
  if (value === null || typeof value !== "object") return null;
  for (const [key, child] of Array.isArray(value) ? value.entries() : Object.entries(value)) {
    const path = `${pointer}/${String(key).replaceAll("~", "~0").replaceAll("/", "~1")}`;
    if (typeof key === "string" && UNSTORABLE.test(key)) return path;
    const found = walk(child, path);
    if (found !== null) return found;
  }
  return null;
}

// How JSON text writes U+0000 and lone surrogates: as escapes (JSON allows no raw control character,
// and UTF-8 cannot carry a lone surrogate); any case of hex digit, as a request's raw text may use.
// A literal backslash-u in a string also matches; the walk then decides.
const MAYBE_UNSTORABLE = /\\u0000|\\ud[89a-f]/i;

// biome-ignore lint/suspicious/noControlCharactersInRegex: matching U+0000 is the purpose of this pattern.
const SUSPECT = /[\u0000\uD800-\uDFFF]/;

// U+0000, a high surrogate not followed by a low one, or a low surrogate not preceded by a high one.
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching U+0000 is the purpose of this pattern.
const UNSTORABLE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

// RFC 9110 §11.1: the scheme is case-insensitive; §11.4: one or more spaces before the credentials.
const BEARER = /^bearer +([\x21-\x7e]+)$/i;

/** The token of a well-formed `Authorization: Bearer` header, or undefined. */
export function bearerToken(authorization: string | undefined | null): string | undefined {
  return BEARER.exec(authorization ?? "")?.[1];
}
