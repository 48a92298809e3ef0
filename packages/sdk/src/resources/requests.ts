import { type ApiPromise, CallPromise } from "../internal/api-promise.ts";
import {
  type Context,
  getRecord,
  type IngestOptions,
  ingestHeaders,
  init,
  type RequestOptions,
  unwrap,
  waitFor,
} from "../internal/context.ts";
import { iterateList } from "../internal/paginate.ts";
import type { WaitForOptions } from "../internal/poll.ts";
import type {
  IngestAccepted,
  ListRequestsParams,
  RequestPage,
  RequestRecord,
  RetryRequestsParams,
  RetryRequestsResult,
  SubmittedBody,
} from "../types.ts";

export interface RequestsResource {
  /**
   * The processing record of one ingest call.
   * @example
   * ```ts
   * const record = await client.requests.get(ack.request_id);
   * if (record.status === "failed") console.error(record.errors);
   * ```
   */
  get(requestId: string, options?: RequestOptions): ApiPromise<RequestRecord>;
  /**
   * The JSON body the request was submitted with: what each `errors[].pointer` of a `failed`
   * record points into. Kept as long as the record.
   * @example
   * ```ts
   * const body = await client.requests.body(record.request_id);
   * ```
   */
  body(requestId: string, options?: RequestOptions): ApiPromise<SubmittedBody>;
  /** One page of the account's requests, newest first. @example `const page = await client.requests.list({ status: "dead" })` */
  list(params?: ListRequestsParams, options?: RequestOptions): ApiPromise<RequestPage>;
  /**
   * Every request matching the filters, newest first.
   * @example
   * ```ts
   * for await (const r of client.requests.iterate({ status: "dead" })) console.log(r.request_id, r.error?.code);
   * ```
   */
  iterate(
    params?: ListRequestsParams,
    options?: RequestOptions,
  ): AsyncGenerator<RequestRecord, void, undefined>;
  /**
   * Polls until the request is `succeeded`, `failed` or `dead` and returns that record (it does
   * not throw on `failed`/`dead`; `ingestAndWait` does). Polls start at 100 ms and back off to
   * 2 s. Resumable: after a restart call it again with the stored `request_id`.
   * @throws {TimeoutError} when `timeoutMs` (default 5 min) runs out.
   * @example
   * ```ts
   * const record = await client.requests.waitFor(requestId, {
   *   timeoutMs: 60_000,
   *   onProgress: (r) => console.log(r.status, r.attempts),
   * });
   * ```
   */
  waitFor(requestId: string, options?: WaitForOptions): ApiPromise<RequestRecord>;
  /**
   * Sends a `failed` or `dead` request again: a new request with the same kind, return and body,
   * acknowledged like an ingest call. The new record's `retry_of` names the original, whose
   * `retried_by` names its newest retry; the original keeps its status. Carries an
   * `Idempotency-Key` (yours, or one generated per call and reused on every attempt), so a retried
   * call never sends the request twice.
   * @throws {ConflictError} (`code` `request_not_retryable`) when the request is `pending`,
   * `processing` or `succeeded`.
   * @throws {NotFoundError} for an unknown request or one past the retention period.
   * @example
   * ```ts
   * const ack = await client.requests.retry(deadRequestId);
   * const record = await client.requests.waitFor(ack.request_id);
   * ```
   */
  retry(requestId: string, options?: IngestOptions): ApiPromise<IngestAccepted>;
  /**
   * Sends again, oldest first, up to `limit` (at most 100) of the account's requests of one status
   * accepted in `[accepted_since, accepted_until)`, skipping those already retried. Counts toward the
   * rate limits as one ingest call per request sent. Call again while `has_more`.
   * @example
   * ```ts
   * let more = true;
   * while (more) {
   *   const sent = await client.requests.retryMany({ status: "dead", accepted_since: "2025-03-23T00:00:00Z" });
   *   for (const r of sent.retries) console.log(r.retry_of, "->", r.request_id);
   *   more = sent.has_more;
   * }
   * ```
   */
  retryMany(params: RetryRequestsParams, options?: IngestOptions): ApiPromise<RetryRequestsResult>;
}

export function requestsResource(ctx: Context): RequestsResource {
  const list = (params: ListRequestsParams = {}, options?: RequestOptions) =>
    unwrap(ctx.raw.GET("/requests", { params: { query: params }, ...init(ctx, options) }));
  return {
    get: (requestId, options) =>
      new CallPromise(
        getRecord(ctx, requestId, options).then((r) => ({ data: r.record, response: r.response })),
      ),
    body: (requestId, options) =>
      unwrap(
        ctx.raw.GET("/requests/{request_id}/body", {
          params: { path: { request_id: requestId } },
          ...init(ctx, options),
        }),
      ),
    list,
    iterate: (params = {}, options) => iterateList(list, params, options),
    waitFor: (requestId, options) => waitFor(ctx, requestId, options),
    retry: (requestId, options) =>
      unwrap(
        ctx.raw.POST("/requests/{request_id}/retry", {
          params: { path: { request_id: requestId } },
          ...init(ctx, options, ingestHeaders(options)),
        }),
      ),
    retryMany: (params, options) =>
      unwrap(
        ctx.raw.POST("/requests/retry", {
          // The spec's default (and maximum), spelled out: the generated type requires defaulted members.
          body: { limit: 100, ...params },
          ...init(ctx, options, ingestHeaders(options)),
        }),
      ),
  };
}
