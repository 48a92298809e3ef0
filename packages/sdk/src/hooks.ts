// Public types of the client's observability options: `logger`/`logLevel` and `hooks`.
// Types only: the code that calls them lives in internal/transport.ts and internal/log.ts.

type LogFn = (message: string, ...details: unknown[]) => void;

/**
 * Where the SDK writes its log lines: `console`, pino, winston, bunyan… anything with these four
 * methods. Each line is a message followed by one object of details
 * (`{ method, path, attempt, status?, durationMs?, traceId?, … }`); the `Authorization` header
 * and bodies are never logged.
 */
export interface Logger {
  error: LogFn;
  warn: LogFn;
  info: LogFn;
  debug: LogFn;
}

/**
 * `"info"` logs every HTTP attempt's outcome (status, duration, trace id) and each retry with
 * its reason and delay; `"debug"` adds a line before each attempt is sent. `"warn"` and
 * `"error"` stay quiet in normal operation.
 */
export type LogLevel = "off" | "error" | "warn" | "info" | "debug";

export interface RequestHookContext {
  /**
   * The request about to be sent, headers complete (`Authorization`, `Idempotency-Key`,
   * `traceparent`): treat them as secret if you record them. Read its body only from a
   * `clone()` (e.g. to sign it); every attempt gets a fresh request.
   */
  request: Request;
  /** 1 for the first attempt, 2 for the first retry… */
  attempt: number;
}

export interface ResponseHookContext {
  /** The request as sent (after `onRequest`). */
  request: Request;
  /**
   * The attempt's response, before the SDK reads it: read the body only from a `clone()`.
   * An error status is here too, whether or not it is then retried.
   */
  response: Response;
  attempt: number;
  /** From sending the request to the response head, ms. */
  durationMs: number;
}

export interface RetryHookContext {
  /** The request of the attempt that failed. */
  request: Request;
  /** The attempt that failed; the retry is `attempt + 1`. */
  attempt: number;
  /** The wait before the retry, ms (`Retry-After` with jitter, or the backoff). */
  delayMs: number;
  /** Why: the status that is retried (`429`, `503`…), or `undefined` when no response came. */
  status: number | undefined;
  /** Why, when no response came: the `TimeoutError` or `ConnectionError` of the attempt. */
  error: Error | undefined;
}

// biome-ignore lint/suspicious/noConfusingVoidType: so that a hook returning nothing (`async () => {}`) type-checks
type MaybeRequest = Request | undefined | void;

/**
 * Functions the client calls for every HTTP attempt, retries included, of the typed helpers and
 * of `client.raw` alike. They may be async: the SDK awaits them. A hook that throws fails the
 * call with that error (no retry), so that a bug in one shows up at once instead of being
 * swallowed.
 *
 * @example
 * ```ts
 * const client = createClient({
 *   baseUrl, token,
 *   hooks: {
 *     onRequest: ({ request }) => {
 *       request.headers.set("X-Client", "erp-sync/1.4"); // or return a new Request
 *     },
 *     onResponse: ({ request, response, durationMs }) =>
 *       metrics.histogram("oisr.http", durationMs, { method: request.method, status: response.status }),
 *     onRetry: ({ attempt, delayMs, status, error }) =>
 *       console.warn(`retry after attempt ${attempt} in ${delayMs} ms:`, status ?? error?.message),
 *   },
 * });
 * ```
 */
export interface Hooks {
  /** Before each attempt. Return a `Request` to send that one instead (e.g. with extra headers). */
  onRequest?(ctx: RequestHookContext): MaybeRequest | Promise<MaybeRequest>;
  /** After each attempt that got a response, whatever its status. */
  onResponse?(ctx: ResponseHookContext): void | Promise<void>;
  /** When an attempt failed and the SDK is about to wait `delayMs` and try again. */
  onRetry?(ctx: RetryHookContext): void | Promise<void>;
}
