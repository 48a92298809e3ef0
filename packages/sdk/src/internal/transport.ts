import { ConnectionError, TimeoutError } from "../errors.ts";
import type { Hooks } from "../hooks.ts";
import { anySignal, sleep as defaultSleep, throwIfAborted } from "./abort.ts";
import type { LevelledLogger } from "./log.ts";
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
  /** The caller's hooks, called for every attempt. */
  hooks?: Hooks | undefined;
  /** The enabled levels of the client's logger. */
  log?: LevelledLogger | undefined;
  /** Gives the `traceparent` to send with a call that has none (`undefined`: send none). */
  traceparent?: (() => string | undefined) | undefined;
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
 * timeouts, idempotency keys, rate-limit pacing, `traceparent`, hooks and logging all live here,
 * so they apply equally to the typed helpers and to `client.raw`, and see every attempt
 * (middleware sees one request and its final response).
 *
 * - `POST /ingest/*` gets an `Idempotency-Key` (a caller's key wins), generated once per logical
 *   call and sent unchanged on every retry, so a retried write is never applied twice.
 * - A non-2xx response that is not retried (or the last one) is returned as is; the caller maps
 *   it to an error. Network failures and timeouts after the last retry throw
 *   `ConnectionError` / `TimeoutError`. The caller's abort throws the signal's reason at once.
 * - Hooks run in order `onRequest` → fetch → `onResponse` (when a response came) → `onRetry`
 *   (when it is retried); a hook's error fails the call as is. The per-attempt timeout starts
 *   after `onRequest`, and the throttle slot is taken before it.
 */
export function createTransport(config: TransportConfig): Transport {
  const baseFetch: FetchLike = config.fetch ?? ((request) => globalThis.fetch(request));
  const retry: RetryConfig = { ...DEFAULT_RETRY_CONFIG, ...config.retry };
  const random = config.random ?? Math.random;
  const now = config.now ?? Date.now;
  const sleep = config.sleep ?? defaultSleep;
  const uuid = config.uuid ?? randomUuid;
  const hooks = config.hooks ?? {};
  const log = config.log ?? {};

  return async function transport(request, call = {}) {
    const callerSignal = request.signal;
    const path = relativePath(request.url, config.basePath);
    const method = request.method.toUpperCase();
    const headers = new Headers(request.headers);
    if (isIngest(method, path) && !headers.has("idempotency-key")) headers.set("Idempotency-Key", uuid());
    // Once per logical call, in the caller's async context; a traceparent the caller set wins.
    const traceparent = headers.has("traceparent") ? undefined : config.traceparent?.();
    if (traceparent) headers.set("traceparent", traceparent);
    const idempotent = IDEMPOTENT_METHODS.has(method) || headers.has("idempotency-key");
    // Buffer the body once so that every attempt can send it again.
    const body = request.body === null ? undefined : await request.arrayBuffer();
    const scopes = config.throttle ? scopesFor(method, path) : [];
    const timeoutMs = call.timeoutMs ?? config.timeoutMs;
    const maxRetries = call.maxRetries ?? retry.maxRetries;

    for (let attempt = 1; ; attempt++) {
      throwIfAborted(callerSignal);
      const ticket =
        config.throttle && scopes.length > 0
          ? await config.throttle.acquire(scopes, callerSignal)
          : undefined;

      const timeout = new AbortController();
      const combined = anySignal([callerSignal, timeout.signal]);
      let timer: ReturnType<typeof setTimeout> | undefined;
      let sent = new Request(request, { headers, body, signal: combined.signal });
      let response: Response | undefined;
      let failure: Error | undefined;
      let outcome: AttemptOutcome;
      let started: number;
      try {
        if (hooks.onRequest) sent = (await hooks.onRequest({ request: sent, attempt })) ?? sent;
        log.debug?.(`oisr: sending ${method} ${path} (attempt ${attempt})`, { method, path, attempt });
        started = now();
        if (timeoutMs > 0 && Number.isFinite(timeoutMs))
          timer = setTimeout(
            () => timeout.abort(new TimeoutError(`Request timed out after ${timeoutMs} ms`, timeoutMs)),
            timeoutMs,
          );
        try {
          response = await baseFetch(sent);
          outcome = { kind: "response", status: response.status, headers: response.headers };
        } catch (err) {
          if (callerSignal.aborted) throw callerSignal.reason;
          const where = `${method} ${path}`;
          if (timeout.signal.aborted) {
            const message = `${where} timed out after ${timeoutMs} ms (attempt ${attempt})`;
            failure = new TimeoutError(message, timeoutMs, { cause: err });
            outcome = { kind: "timeout" };
          } else {
            failure = new ConnectionError(`${where} failed: ${describe(err)} (attempt ${attempt})`, {
              cause: err,
            });
            outcome = { kind: "network" };
          }
        }
      } catch (err) {
        // The caller's abort, or a hook that threw: nothing was (or will be) answered.
        if (ticket) config.throttle?.complete(ticket, undefined);
        throw err;
      } finally {
        // The timeout bounds the wait for the response head; reading the body is the caller's.
        clearTimeout(timer);
        combined.dispose();
      }
      if (ticket) config.throttle?.complete(ticket, response);
      const durationMs = now() - started;
      if (response) await hooks.onResponse?.({ request: sent, response, attempt, durationMs });

      const decision = decideRetry(
        outcome,
        { ...retry, maxRetries },
        { retryIndex: attempt - 1, idempotent, now: now(), random },
      );
      const status = response?.status;
      const delayMs = decision.retry ? decision.delayMs : undefined;
      if (log.info) {
        const traceId = response?.headers.get("x-trace-id") ?? undefined;
        log.info(
          `oisr: ${method} ${path} → ${status ?? failure?.name} in ${durationMs} ms (attempt ${attempt}${traceId ? `, trace ${traceId}` : ""})${delayMs === undefined ? "" : `; retrying in ${delayMs} ms`}`,
          { method, path, attempt, status, error: failure?.message, durationMs, traceId, retryInMs: delayMs },
        );
      }
      if (delayMs === undefined) {
        if (response) return response;
        throw failure;
      }
      // Free the connection. Not awaited: cancelling one branch of a tee'd body (a fetch that
      // returns clones) only settles once the other branch is cancelled too.
      response?.body?.cancel().catch(() => {});
      await hooks.onRetry?.({ request: sent, attempt, delayMs, status, error: failure });
      await sleep(delayMs, callerSignal);
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
