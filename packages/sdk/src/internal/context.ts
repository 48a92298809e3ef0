import type { paths } from "@oisr/contract/schema";
import type { Client } from "openapi-fetch";
import { RequestFailedError } from "../errors.ts";
import type { IngestAccepted, RequestRecord } from "../types.ts";
import { type ApiPromise, CallPromise, type WithResponse } from "./api-promise.ts";
import { type PollTiming, pollUntilFinal, type WaitForOptions } from "./poll.ts";
import { errorFromResponse } from "./problem.ts";
import { parseRetryAfter } from "./retry-policy.ts";
import type { Transport } from "./transport.ts";

/** Options every SDK call takes. */
export interface RequestOptions {
  /** Cancels the call, including its retries and any wait for a rate-limit slot. */
  signal?: AbortSignal;
  /** Per-attempt timeout for this call, ms (overrides the client's `timeoutMs`). */
  timeoutMs?: number;
  /** Retries for this call (overrides the client's `maxRetries`). */
  maxRetries?: number;
}

/** Options of an ingest call. */
export interface IngestOptions extends RequestOptions {
  /**
   * Your own `Idempotency-Key` (1–255 printable characters). Without one the SDK generates a
   * UUID per call. Supply one derived from your data (e.g. `orders-batch-${batchId}`) to make a
   * resubmission after a crash of your process idempotent too.
   */
  idempotencyKey?: string;
}

/** Options of `ingestAndWait`. */
export interface IngestAndWaitOptions extends IngestOptions, Omit<WaitForOptions, "signal" | "timeoutMs"> {
  /**
   * How long to wait for the request to become final once accepted, ms (default 300 000).
   * The ingest call itself uses the client's per-attempt timeout.
   */
  timeoutMs?: number;
}

/** What the resource modules share. */
export interface Context {
  raw: Client<paths>;
  transport: Transport;
  pollTiming: PollTiming;
  /** Wait used between change-feed polls (injectable for tests). */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

type Result<T> = { data?: T; error?: unknown; response: Response };

/** openapi-fetch init for one call: signal, per-call transport options, extra headers. */
export function init(ctx: Context, options: RequestOptions | undefined, headers?: Record<string, string>) {
  const { signal, timeoutMs, maxRetries } = options ?? {};
  return {
    ...(signal ? { signal } : {}),
    ...(headers ? { headers } : {}),
    fetch: (request: Request) => ctx.transport(request, { timeoutMs, maxRetries }),
  };
}

export function ingestHeaders(options: IngestOptions | undefined): Record<string, string> | undefined {
  return options?.idempotencyKey ? { "Idempotency-Key": options.idempotencyKey } : undefined;
}

/** The body of a successful response (with the response, for `withResponse()`), or the mapped `ApiError`. */
export function unwrap<T>(call: Promise<Result<T>>): ApiPromise<T> {
  return new CallPromise(
    call.then(({ data, error, response }) => {
      if (!response.ok) throw errorFromResponse(response, error);
      return { data: data as T, response };
    }),
  );
}

export async function getRecord(ctx: Context, requestId: string, options?: RequestOptions) {
  const { data, error, response } = await ctx.raw.GET("/requests/{request_id}", {
    params: { path: { request_id: requestId } },
    ...init(ctx, options),
  });
  if (!response.ok || !data) throw errorFromResponse(response, error);
  return {
    record: data as RequestRecord,
    retryAfterMs: parseRetryAfter(response.headers.get("retry-after"), Date.now()),
    response,
  };
}

/** Polls until final; the response is the last poll's. */
async function pollRecord(
  ctx: Context,
  requestId: string,
  options: WaitForOptions,
  initialDelayMs: number,
): Promise<WithResponse<RequestRecord>> {
  let response: Response | undefined;
  const data = await pollUntilFinal(
    requestId,
    async (signal) => {
      const polled = await getRecord(ctx, requestId, signal ? { signal } : {});
      response = polled.response;
      return polled;
    },
    options,
    { ...ctx.pollTiming, initialDelayMs },
  );
  return { data, response: response as Response };
}

export function waitFor(
  ctx: Context,
  requestId: string,
  options: WaitForOptions = {},
): ApiPromise<RequestRecord> {
  return new CallPromise(pollRecord(ctx, requestId, options, 0));
}

/** Ingest, then wait until the request is final; throws `RequestFailedError` unless it succeeded. */
export function ingestAndWait(
  ctx: Context,
  ingest: (options: IngestOptions) => Promise<IngestAccepted>,
  options: IngestAndWaitOptions = {},
): ApiPromise<RequestRecord> {
  const { timeoutMs, onProgress, ...ingestOptions } = options;
  return new CallPromise(
    (async () => {
      const ack = await ingest(ingestOptions);
      const final = await pollRecord(
        ctx,
        ack.request_id,
        {
          ...(options.signal ? { signal: options.signal } : {}),
          ...(timeoutMs !== undefined ? { timeoutMs } : {}),
          ...(onProgress ? { onProgress } : {}),
        },
        // The request was accepted a moment ago: give it a head start before the first poll.
        ctx.pollTiming.firstIntervalMs,
      );
      if (final.data.status !== "succeeded") throw new RequestFailedError(final.data);
      return final;
    })(),
  );
}
