import type { ApiPromise } from "../internal/api-promise.ts";
import {
  type Context,
  type IngestAndWaitOptions,
  type IngestOptions,
  ingestAndWait,
  ingestHeaders,
  init,
  type RequestOptions,
  unwrap,
} from "../internal/context.ts";
import { type ChangesOptions, iterateList, listChanges } from "../internal/paginate.ts";
import type {
  DispositionInput,
  IngestAccepted,
  ListReturnsParams,
  RequestRecord,
  Return,
  ReturnInput,
  ReturnPage,
} from "../types.ts";

/** Filters of the return change feed (the cursor is given separately). */
export type ReturnChangesOptions = ChangesOptions & Omit<ListReturnsParams, "cursor">;

export interface ReturnsResource {
  /**
   * Submits 1–1000 returns (upsert by `external_id`, the RMA). `order_id` may be the order's
   * server id or its `external_id`.
   * @example
   * ```ts
   * await client.returns.ingest([{ external_id: "RMA-1", order_id: "A-1001", status: "approved",
   *   requested_at: "2025-01-03T09:00:00Z", source_updated_at: "2025-01-03T09:00:00Z",
   *   items: [{ line_id: "1", quantity: 1, reason_code: "size_or_fit" }] }]);
   * ```
   */
  ingest(returns: ReturnInput[], options?: IngestOptions): ApiPromise<IngestAccepted>;
  /** `ingest`, then waits for the final record. @throws {RequestFailedError} on `failed`/`dead`. @example `await client.returns.ingestAndWait(returns)` */
  ingestAndWait(returns: ReturnInput[], options?: IngestAndWaitOptions): ApiPromise<RequestRecord>;
  /**
   * Submits dispositions (what happened to returned items) for one return, by its server id or
   * RMA. Requests of one account are applied in order, so this may follow the return's own
   * ingest call immediately.
   * @example
   * ```ts
   * await client.returns.ingestDispositions("RMA-1", [{ line_id: "1", quantity: 1, outcome: "restock",
   *   decided_at: "2025-01-05T10:00:00Z" }]);
   * ```
   */
  ingestDispositions(
    returnId: string,
    dispositions: DispositionInput[],
    options?: IngestOptions,
  ): ApiPromise<IngestAccepted>;
  /** `ingestDispositions`, then waits for the final record. @throws {RequestFailedError} on `failed`/`dead`. @example `await client.returns.ingestDispositionsAndWait("RMA-1", dispositions)` */
  ingestDispositionsAndWait(
    returnId: string,
    dispositions: DispositionInput[],
    options?: IngestAndWaitOptions,
  ): ApiPromise<RequestRecord>;
  /** One return by server id (`ret_…`) or RMA. @example `const ret = await client.returns.get("RMA-1")` */
  get(returnId: string, options?: RequestOptions): ApiPromise<Return>;
  /** One page of the return change feed. @example `const page = await client.returns.list({ status: "received" })` */
  list(params?: ListReturnsParams, options?: RequestOptions): ApiPromise<ReturnPage>;
  /**
   * Every return matching the filters, page after page.
   * @example
   * ```ts
   * for await (const ret of client.returns.iterate({ order_id: "A-1001" })) console.log(ret.status);
   * ```
   */
  iterate(params?: ListReturnsParams, options?: RequestOptions): AsyncGenerator<Return, void, undefined>;
  /**
   * An endless feed of changed returns; see `orders.changes` for the cursor rules.
   * @example
   * ```ts
   * for await (const { return: ret, cursor } of client.returns.changes({ cursor: saved })) {
   *   await upsert(ret);
   *   await save(cursor);
   * }
   * ```
   */
  changes(
    options?: ReturnChangesOptions,
  ): AsyncGenerator<{ return: Return; cursor: string | null }, void, undefined>;
}

export function returnsResource(ctx: Context): ReturnsResource {
  const ingest = (returns: ReturnInput[], options?: IngestOptions) =>
    unwrap(
      ctx.raw.POST("/ingest/returns", { body: { returns }, ...init(ctx, options, ingestHeaders(options)) }),
    );
  const ingestDispositions = (returnId: string, dispositions: DispositionInput[], options?: IngestOptions) =>
    unwrap(
      ctx.raw.POST("/ingest/returns/{return_id}/dispositions", {
        params: { path: { return_id: returnId } },
        body: { dispositions },
        ...init(ctx, options, ingestHeaders(options)),
      }),
    );
  const list = (params: ListReturnsParams = {}, options?: RequestOptions) =>
    unwrap(ctx.raw.GET("/returns", { params: { query: params }, ...init(ctx, options) }));
  return {
    ingest,
    ingestAndWait: (returns, options) => ingestAndWait(ctx, (o) => ingest(returns, o), options),
    ingestDispositions,
    ingestDispositionsAndWait: (returnId, dispositions, options) =>
      ingestAndWait(ctx, (o) => ingestDispositions(returnId, dispositions, o), options),
    get: (returnId, options) =>
      unwrap(
        ctx.raw.GET("/returns/{return_id}", {
          params: { path: { return_id: returnId } },
          ...init(ctx, options),
        }),
      ),
    list,
    iterate: (params = {}, options) => iterateList(list, params, options),
    async *changes(options = {}) {
      for await (const change of listChanges(list, options, ctx.sleep)) {
        yield { return: change.item, cursor: change.cursor };
      }
    },
  };
}
