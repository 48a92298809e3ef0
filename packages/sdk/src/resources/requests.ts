import { type ApiPromise, CallPromise } from "../internal/api-promise.ts";
import { type Context, getRecord, init, type RequestOptions, unwrap, waitFor } from "../internal/context.ts";
import { iterateList } from "../internal/paginate.ts";
import type { WaitForOptions } from "../internal/poll.ts";
import type { ListRequestsParams, RequestPage, RequestRecord } from "../types.ts";

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
}

export function requestsResource(ctx: Context): RequestsResource {
  const list = (params: ListRequestsParams = {}, options?: RequestOptions) =>
    unwrap(ctx.raw.GET("/requests", { params: { query: params }, ...init(ctx, options) }));
  return {
    get: (requestId, options) =>
      new CallPromise(
        getRecord(ctx, requestId, options).then((r) => ({ data: r.record, response: r.response })),
      ),
    list,
    iterate: (params = {}, options) => iterateList(list, params, options),
    waitFor: (requestId, options) => waitFor(ctx, requestId, options),
  };
}
