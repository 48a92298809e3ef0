import type { FieldError, Permission, ProblemCode, ProblemDetails, RequestRecord } from "./types.ts";

/**
 * Base class of every error the SDK throws (except the caller's own `AbortSignal` reason, which is
 * re-thrown as is).
 *
 * @example
 * ```ts
 * try {
 *   await client.orders.get("ord_missing");
 * } catch (err) {
 *   if (err instanceof OisrError) console.error(err.name, err.message);
 * }
 * ```
 */
export class OisrError extends Error {
  override name = "OisrError";
}

/**
 * The API answered with an error status (`application/problem+json`, RFC 9457).
 * Subclasses narrow by status: {@link ValidationError} (400), {@link AuthenticationError} (401),
 * {@link PermissionError} (403), {@link NotFoundError} (404), {@link ConflictError} (409/422),
 * {@link RateLimitError} (429).
 * Any other status (405, 413, 415, 5xx after retries…) is a plain `ApiError`.
 *
 * @example
 * ```ts
 * try {
 *   await client.orders.ingest(orders);
 * } catch (err) {
 *   if (err instanceof ApiError) console.error(err.status, err.code, err.traceId);
 * }
 * ```
 */
export class ApiError extends OisrError {
  override name = "ApiError";
  // `declare`d and set by one Object.assign: fewer bytes in the bundle (size-limit) than five fields.
  /** HTTP status of the final attempt. */
  declare readonly status: number;
  /** Machine-readable problem code (`validation_failed`, `not_found`, …); `undefined` if the body was not a problem. */
  declare readonly code: ProblemCode | undefined;
  /** The problem document as sent (synthesised from the status when the body was not problem+json). */
  declare readonly problem: ProblemDetails;
  /** W3C trace id from the body or the `X-Trace-Id` header: quote it when asking for support. */
  declare readonly traceId: string | undefined;
  /** Response headers of the final attempt. */
  declare readonly headers: Headers;

  constructor(status: number, problem: ProblemDetails, headers: Headers) {
    const code = problem.code;
    // `title` is required of a problem (errorFromResponse synthesises one for other bodies).
    const detail = problem.detail ?? problem.title;
    // A 400 names its first two field errors (each cut at 100 characters) and how many of the
    // listed ones follow, so that a logged message says what to fix:
    // "… schema. /orders/0/currency is required; /orders/1/lines … (and 3 more)".
    const errors = problem.errors ?? [];
    const traceId = problem.trace_id ?? headers.get("x-trace-id") ?? undefined;
    super(
      `${status}${code ? ` ${code}` : ""}: ${detail}${errors
        .slice(0, 2)
        .map((e) => ` ${e.pointer} ${e.message}`.slice(0, 100))
        .join(
          ";",
        )}${errors[2] ? ` (and ${errors.length - 2} more)` : ""}${traceId ? ` (trace ${traceId})` : ""}`,
    );
    Object.assign(this, { status, code, problem, traceId, headers });
  }
}

/**
 * `400`: malformed JSON, schema violation, batch too large or a bad cursor. `errors` lists each
 * offending field as a JSON Pointer into the body you sent.
 *
 * @example
 * ```ts
 * catch (err) {
 *   if (err instanceof ValidationError) for (const e of err.errors) console.error(e.pointer, e.message);
 * }
 * ```
 */
export class ValidationError extends ApiError {
  override name = "ValidationError";
  get errors(): FieldError[] {
    return this.problem.errors ?? [];
  }
}

/**
 * `401`: missing, malformed, unknown or revoked token (`code` `unauthorized`), or an expired key
 * or a secret replaced by a rotation whose overlap ended (`api_key_expired`, with `expiredAt`).
 * Never retried.
 *
 * @example
 * ```ts
 * catch (err) {
 *   if (err instanceof AuthenticationError && err.code === "api_key_expired")
 *     console.error(`key ${err.apiKeyId} expired at ${err.expiredAt}`);
 * }
 * ```
 */
export class AuthenticationError extends ApiError {
  override name = "AuthenticationError";
  /** For `api_key_expired`: when the key, or the secret a rotation replaced, stopped working. */
  get expiredAt(): string | undefined {
    return this.problem.expired_at;
  }
  /** For `api_key_expired`: the key (`key_…`) whose secret was sent. */
  get apiKeyId(): string | undefined {
    return this.problem.api_key_id;
  }
}

/**
 * `403 insufficient_permission`: the key is valid but lacks the permission the call needs
 * (`permission`; `apiKeyId` names the key). Nothing was stored and no rate limit counted it; no
 * retry can help: use a key that holds the permission. Also `keys.create` asking for a
 * permission the calling key does not hold.
 *
 * @example
 * ```ts
 * catch (err) {
 *   if (err instanceof PermissionError) console.error(`key ${err.apiKeyId} needs ${err.permission}`);
 * }
 * ```
 */
export class PermissionError extends ApiError {
  override name = "PermissionError";
  /** The permission the call needs (`undefined` if the body was not the API's problem). */
  get permission(): Permission | undefined {
    return this.problem.permission;
  }
  /** The key that lacks it (`key_…`). */
  get apiKeyId(): string | undefined {
    return this.problem.api_key_id;
  }
}

/** `404`: no such resource in your account (another account's resources look the same), or an expired request record. */
export class NotFoundError extends ApiError {
  override name = "NotFoundError";
}

/**
 * `422 idempotency_key_reused`: the `Idempotency-Key` was already used on this endpoint within
 * 24 h with a different body; use a new key for a new body. Or a `409`: `subscription_disabled`
 * from `webhooks.recover` / `webhooks.retryDelivery` on a disabled subscription (enable it with
 * `webhooks.update(id, { status: "enabled" })` first); `api_key_inactive` from `keys.rotate` /
 * `keys.revoke` on a revoked or expired key; `last_admin_key` from `keys.revoke` on the account's
 * last active key holding `api_keys:write`. Tell them apart by `code`.
 */
export class ConflictError extends ApiError {
  override name = "ConflictError";
}

/**
 * `429` after the retries ran out (or when the server asked to wait longer than the SDK's cap).
 * `retryAfterMs` says how long to wait before trying again.
 *
 * @example
 * ```ts
 * catch (err) {
 *   if (err instanceof RateLimitError) await new Promise((r) => setTimeout(r, err.retryAfterMs ?? 1000));
 * }
 * ```
 */
export class RateLimitError extends ApiError {
  override name = "RateLimitError";
  /** Milliseconds to wait, from `Retry-After` (or `X-RateLimit-Reset`); `undefined` if the server gave neither. */
  readonly retryAfterMs: number | undefined;

  constructor(status: number, problem: ProblemDetails, headers: Headers, retryAfterMs: number | undefined) {
    super(status, problem, headers);
    this.retryAfterMs = retryAfterMs;
  }
}

/**
 * A call (every attempt, when `timeoutMs` elapsed on each) or a wait (`requests.waitFor`) took
 * longer than allowed.
 */
export class TimeoutError extends OisrError {
  override name = "TimeoutError";
  readonly timeoutMs: number;
  constructor(message: string, timeoutMs: number, options?: { cause?: unknown }) {
    super(message, options);
    this.timeoutMs = timeoutMs;
  }
}

/** The network failed (DNS, refused connection, reset, CORS…) on every attempt. `cause` holds the last underlying error. */
export class ConnectionError extends OisrError {
  override name = "ConnectionError";
}

/**
 * An ingest request reached a final status other than `succeeded`: `failed` (business rules
 * rejected it; `record.errors` says why; resubmitting the same body fails again) or `dead`
 * (processing could not finish; nothing was applied; resubmitting is safe).
 *
 * @example
 * ```ts
 * try {
 *   await client.returns.ingestAndWait(returns);
 * } catch (err) {
 *   if (err instanceof RequestFailedError && err.record.status === "failed") {
 *     for (const e of err.record.errors) console.error(e.pointer, e.code, e.message);
 *   }
 * }
 * ```
 */
export class RequestFailedError extends OisrError {
  override name = "RequestFailedError";
  readonly record: RequestRecord;
  /** The request's `trace_id` (the ingest call's trace; its processing continues it): quote it when asking for support. */
  readonly traceId: string;
  constructor(record: RequestRecord) {
    const why =
      record.status === "dead"
        ? (record.error?.message ?? "processing could not finish")
        : `${record.errors.length} item error(s)${record.errors[0] ? `, first: ${record.errors[0].pointer} ${record.errors[0].code}` : ""}`;
    super(`Request ${record.request_id} ${record.status}: ${why} (trace ${record.trace_id})`);
    this.record = record;
    this.traceId = record.trace_id;
  }
}

/** `verifyWebhook` rejected a delivery: missing headers, bad signature, or a timestamp outside the tolerance. Answer it with `400`. */
export class WebhookVerificationError extends OisrError {
  override name = "WebhookVerificationError";
}
