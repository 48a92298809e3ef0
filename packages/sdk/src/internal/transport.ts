import { ConnectionError, TimeoutError } from "../errors.ts";
import { anySignal, sleep as defaultSleep, throwIfAborted } from "./abort.ts";
import { type AttemptOutcome, DEFAULT_RETRY_CONFIG, decideRetry, type RetryConfig } from "./retry-policy.ts";
import { isIngest, relativePath, scopesFor } from "./scopes.ts";
import type { Throttle } from "./throttle.ts";

export type FetchLike = (request: Request) => Promise<Response>;

export interface TransportConfig {
  /** The caller's fetch, or the global one. */
  fetch?: FetchLike;
  /** Path of the base URL (`/v2`), to recognise ingest calls and rate-limit scopes. */
  basePath: string;
  retry?: Partial<RetryConfig>;
  /** Per-attempt timeout; `0` or `Infinity` disables it. */
  timeoutMs: number;
  throttle?: Throttle | undefined;
  // Seams for tests.
  random?: () => number;
  now?: () => number;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  uuid?: () => string;
}

/** Per-call overrides. The caller's `AbortSignal` travels on the `Request` itself. */
export interface CallOptions {
  timeoutMs?: number | undefined;
  maxRetries?: number | undefined;
}

/** A fetch with OISR semantics; called once per logical request. */
export type Transport = (request: Request, call?: CallOptions) => Promise<Response>;

/**
 * PATCH is here because the API's only PATCH (webhook subscription update) sets fields, so
 * sending it twice leaves the same state.
 */
const IDEMPOTENT_METHODS = new Set(["GET", "HEAD", "OPTIONS", "PUT", "DELETE", "PATCH"]);

/**
 * The one custom fetch handed to openapi-fetch, under all middleware: retries, per-attempt
 * timeouts, idempotency keys and rate-limit pacing all live here, so they apply equally to the
 * typed helpers and to `client.raw`.
 *
 * - `POST /ingest/*` gets an `Idempotency-Key` (a caller's key wins), generated once per logical
 *   call and sent unchanged on every retry, so a retried write is never applied twice.
 * - A non-2xx response that is not retried (or the last one) is returned as is; the caller maps
 *   it to an error. Network failures and timeouts after the last retry throw
 *   `ConnectionError` / `TimeoutError`. The caller's abort throws the signal's reason at once.
 */
export function createTransport(config: TransportConfig): Transport {
  const baseFetch: FetchLike = config.fetch ?? ((request) => globalThis.fetch(request));
  const retry: RetryConfig = { ...DEFAULT_RETRY_CONFIG, ...config.retry };
  const random = config.random ?? Math.random;
  const now = config.now ?? Date.now;
  const sleep = config.sleep ?? defaultSleep;
  const uuid = config.uuid ?? randomUuid;

  return async function transport(request, call = {}) {
    const callerSignal = request.signal;
    const path = relativePath(request.url, config.basePath);
    const method = request.method.toUpperCase();
    const headers = new Headers(request.headers);
    if (isIngest(method, path) && !headers.has("idempotency-key")) headers.set("Idempotency-Key", uuid());
    const idempotent = IDEMPOTENT_METHODS.has(method) || headers.has("idempotency-key");
    // Buffer the body once so that every attempt can send it again.
    const body = request.body === null ? undefined : await request.arrayBuffer();
    const scopes = config.throttle ? scopesFor(method, path) : [];
    const timeoutMs = call.timeoutMs ?? config.timeoutMs;
    const maxRetries = call.maxRetries ?? retry.maxRetries;

    for (let attempt = 0; ; attempt++) {
      throwIfAborted(callerSignal);
      const ticket =
        config.throttle && scopes.length > 0
          ? await config.throttle.acquire(scopes, callerSignal)
          : undefined;

      const timeout = new AbortController();
      const timer =
        timeoutMs > 0 && Number.isFinite(timeoutMs)
          ? setTimeout(
              () => timeout.abort(new TimeoutError(`Request timed out after ${timeoutMs} ms`, timeoutMs)),
              timeoutMs,
            )
          : undefined;
      const combined = anySignal([callerSignal, timeout.signal]);

      let response: Response | undefined;
      let failure: Error | undefined;
      let outcome: AttemptOutcome;
      try {
        response = await baseFetch(new Request(request, { headers, body, signal: combined.signal }));
        outcome = { kind: "response", status: response.status, headers: response.headers };
      } catch (err) {
        if (callerSignal.aborted) {
          if (ticket) config.throttle?.complete(ticket, undefined);
          throw callerSignal.reason;
        }
        if (timeout.signal.aborted) {
          failure = new TimeoutError(
            `${method} ${path} timed out after ${timeoutMs} ms (attempt ${attempt + 1})`,
            timeoutMs,
            {
              cause: err,
            },
          );
          outcome = { kind: "timeout" };
        } else {
          failure = new ConnectionError(
            `${method} ${path} failed: ${describe(err)} (attempt ${attempt + 1})`,
            { cause: err },
          );
          outcome = { kind: "network" };
        }
      } finally {
        // The timeout bounds the wait for the response head; reading the body is the caller's.
        clearTimeout(timer);
        combined.dispose();
      }
      if (ticket) config.throttle?.complete(ticket, response);

      const decision = decideRetry(
        outcome,
        { ...retry, maxRetries },
        { retryIndex: attempt, idempotent, now: now(), random },
      );
      if (!decision.retry) {
        if (response) return response;
        throw failure;
      }
      // Free the connection. Not awaited: cancelling one branch of a tee'd body (a fetch that
      // returns clones) only settles once the other branch is cancelled too.
      response?.body?.cancel().catch(() => {});
      await sleep(decision.delayMs, callerSignal);
    }
  };
}

/**
 * A v4 UUID. `crypto.randomUUID` only exists in secure contexts (https, localhost) in browsers;
 * `getRandomValues` exists everywhere.
 */
export function randomUuid(): string {
  if (typeof globalThis.crypto.randomUUID === "function") return globalThis.crypto.randomUUID();
  const b = globalThis.crypto.getRandomValues(new Uint8Array(16));
  b[6] = ((b[6] as number) & 0x0f) | 0x40;
  b[8] = ((b[8] as number) & 0x3f) | 0x80;
  const hex = Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

function describe(err: unknown): string {
  if (err instanceof Error) {
    const cause = err.cause instanceof Error ? `: ${err.cause.message}` : "";
    return `${err.message}${cause}`;
  }
  return String(err);
}
