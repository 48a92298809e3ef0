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
import { iterateList } from "../internal/paginate.ts";
import type {
  IngestAccepted,
  InventoryLevel,
  InventoryPage,
  InventorySnapshotInput,
  ListInventoryParams,
  RequestRecord,
} from "../types.ts";

export interface InventoryResource {
  /**
   * Submits inventory snapshots per location. `mode: "full"` zeroes the location's skus that the
   * snapshot omits; a snapshot only replaces levels with an older `as_of`.
   * @example
   * ```ts
   * await client.inventory.ingest([{ location_id: "WH-1", as_of: new Date().toISOString(), mode: "partial",
   *   items: [{ sku: "SKU-1", on_hand: 12, available: 10 }] }]);
   * ```
   */
  ingest(snapshots: InventorySnapshotInput[], options?: IngestOptions): ApiPromise<IngestAccepted>;
  /** `ingest`, then waits for the final record. @throws {RequestFailedError} on `failed`/`dead`. @example `await client.inventory.ingestAndWait(snapshots)` */
  ingestAndWait(
    snapshots: InventorySnapshotInput[],
    options?: IngestAndWaitOptions,
  ): ApiPromise<RequestRecord>;
  /** One page of inventory levels. @example `const page = await client.inventory.list({ location_id: "WH-1" })` */
  list(params?: ListInventoryParams, options?: RequestOptions): ApiPromise<InventoryPage>;
  /**
   * Every level matching the filters, page after page.
   * @example
   * ```ts
   * for await (const level of client.inventory.iterate({ sku: "SKU-1" })) console.log(level.location_id, level.available);
   * ```
   */
  iterate(
    params?: ListInventoryParams,
    options?: RequestOptions,
  ): AsyncGenerator<InventoryLevel, void, undefined>;
}

export function inventoryResource(ctx: Context): InventoryResource {
  const ingest = (snapshots: InventorySnapshotInput[], options?: IngestOptions) =>
    unwrap(
      ctx.raw.POST("/ingest/inventory", {
        body: { snapshots },
        ...init(ctx, options, ingestHeaders(options)),
      }),
    );
  const list = (params: ListInventoryParams = {}, options?: RequestOptions) =>
    unwrap(ctx.raw.GET("/inventory", { params: { query: params }, ...init(ctx, options) }));
  return {
    ingest,
    ingestAndWait: (snapshots, options) => ingestAndWait(ctx, (o) => ingest(snapshots, o), options),
    list,
    iterate: (params = {}, options) => iterateList(list, params, options),
  };
}
