import type { ApiPromise } from "../internal/api-promise.ts";
import {
  type Context,
  type IngestAndWaitOptions,
  type IngestOptions,
  ingestAndWait,
  ingestHeaders,
  init,
  unwrap,
} from "../internal/context.ts";
import type { IngestAccepted, RequestRecord, ShipmentInput } from "../types.ts";

export interface ShipmentsResource {
  /**
   * Submits shipments against orders (`order_id` = server id or external id). Re-sending a
   * shipment with the same `external_id` and lines is harmless (`unchanged`).
   * @example
   * ```ts
   * await client.shipments.ingest([{ external_id: "SHP-1", order_id: "A-1001", carrier: "dhl",
   *   tracking_number: "00340434", shipped_at: "2025-01-02T08:00:00Z", lines: [{ line_id: "1", quantity: 2 }] }]);
   * ```
   */
  ingest(shipments: ShipmentInput[], options?: IngestOptions): ApiPromise<IngestAccepted>;
  /** `ingest`, then waits for the final record. @throws {RequestFailedError} on `failed`/`dead`. @example `await client.shipments.ingestAndWait(shipments)` */
  ingestAndWait(shipments: ShipmentInput[], options?: IngestAndWaitOptions): ApiPromise<RequestRecord>;
}

export function shipmentsResource(ctx: Context): ShipmentsResource {
  const ingest = (shipments: ShipmentInput[], options?: IngestOptions) =>
    unwrap(
      ctx.raw.POST("/ingest/shipments", {
        body: { shipments },
        ...init(ctx, options, ingestHeaders(options)),
      }),
    );
  return {
    ingest,
    ingestAndWait: (shipments, options) => ingestAndWait(ctx, (o) => ingest(shipments, o), options),
  };
}
