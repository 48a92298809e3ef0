import type { components } from "@oisr/contract/schema";
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
  IngestAccepted,
  ListOrdersParams,
  Order,
  OrderInput,
  OrderPage,
  RequestRecord,
} from "../types.ts";

/** Filters of the order change feed (the cursor is given separately). */
export type OrderChangesOptions = ChangesOptions & Omit<ListOrdersParams, "cursor">;

export interface OrdersResource {
  /**
   * Submits 1–1000 orders (upsert by `external_id`). Resolves with the `202` acknowledgment once
   * the batch is stored; processing happens afterwards (see `requests.waitFor`).
   *
   * @example
   * ```ts
   * const ack = await client.orders.ingest([{ external_id: "A-1001", source: "shopify", currency: "EUR",
   *   placed_at: "2025-01-01T12:00:00Z", source_updated_at: "2025-01-01T12:00:00Z",
   *   ship_to: { name: "Ada", line1: "1 Main St", city: "Berlin", country: "DE" },
   *   lines: [{ line_id: "1", sku: "SKU-1", quantity: 2, unit_price: "19.99" }] }]);
   * console.log(ack.request_id);
   * ```
   */
  ingest(orders: OrderInput[], options?: IngestOptions): ApiPromise<IngestAccepted>;
  /**
   * `ingest`, then waits for the final request record.
   * @throws {RequestFailedError} when the request ends `failed` or `dead`.
   * @example
   * ```ts
   * const record = await client.orders.ingestAndWait(orders, { onProgress: (r) => console.log(r.status) });
   * console.log(record.result?.created);
   * ```
   */
  ingestAndWait(orders: OrderInput[], options?: IngestAndWaitOptions): ApiPromise<RequestRecord>;
  /**
   * One order by server id (`ord_…`) or by your `external_id`.
   * @example
   * ```ts
   * const order = await client.orders.get("A-1001");
   * ```
   */
  get(identifier: string, options?: RequestOptions): ApiPromise<Order>;
  /**
   * One page of the order change feed (least recently changed first).
   * @example
   * ```ts
   * const page = await client.orders.list({ status: "open", limit: 100 });
   * if (page.has_more) await client.orders.list({ status: "open", limit: 100, cursor: page.next_cursor });
   * ```
   */
  list(params?: ListOrdersParams, options?: RequestOptions): ApiPromise<OrderPage>;
  /**
   * Every order matching the filters, page after page.
   * @example
   * ```ts
   * for await (const order of client.orders.iterate({ source: "shopify" })) console.log(order.id);
   * ```
   */
  iterate(params?: ListOrdersParams, options?: RequestOptions): AsyncGenerator<Order, void, undefined>;
  /**
   * An endless feed of changed orders for incremental sync. Persist `cursor` after handling each
   * order; resume with it (and the same filters). Delivery is at-least-once: upsert by `id` and
   * `version`. Aborting the signal ends the loop.
   * @example
   * ```ts
   * const controller = new AbortController();
   * for await (const { order, cursor } of client.orders.changes({ cursor: await load(), signal: controller.signal })) {
   *   await upsert(order);
   *   await save(cursor);
   * }
   * ```
   */
  changes(
    options?: OrderChangesOptions,
  ): AsyncGenerator<{ order: Order; cursor: string | null }, void, undefined>;
}

export function ordersResource(ctx: Context): OrdersResource {
  const ingest = (orders: OrderInput[], options?: IngestOptions) =>
    unwrap(
      ctx.raw.POST("/ingest/orders", {
        // Only the generated body type insists on `status` (see OrderInput); the server defaults it.
        body: { orders: orders as components["schemas"]["OrderInput"][] },
        ...init(ctx, options, ingestHeaders(options)),
      }),
    );
  const list = (params: ListOrdersParams = {}, options?: RequestOptions) =>
    unwrap(ctx.raw.GET("/orders", { params: { query: params }, ...init(ctx, options) }));
  return {
    ingest,
    ingestAndWait: (orders, options) => ingestAndWait(ctx, (o) => ingest(orders, o), options),
    get: (identifier, options) =>
      unwrap(
        ctx.raw.GET("/orders/{identifier}", { params: { path: { identifier } }, ...init(ctx, options) }),
      ),
    list,
    iterate: (params = {}, options) => iterateList(list, params, options),
    async *changes(options = {}) {
      for await (const change of listChanges(list, options, ctx.sleep)) {
        yield { order: change.item, cursor: change.cursor };
      }
    },
  };
}
