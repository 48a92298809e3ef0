import { applyDispositions } from "./dispositions.ts";
import type { IngestBodies } from "./input.ts";
import { applyInventory } from "./inventory.ts";
import type { ApplyResult, DomainContext, IngestKind } from "./model.ts";
import { applyOrders } from "./orders.ts";
import type { BatchParams } from "./referenced-keys.ts";
import { applyReturns } from "./returns.ts";
import { applyShipments } from "./shipments.ts";
import type { StateView } from "./state.ts";

/** Applies one stored ingest request of any kind; the server's worker calls this. */
export function applyBatch<K extends IngestKind>(
  kind: K,
  state: StateView,
  body: IngestBodies[K],
  ctx: DomainContext,
  params: BatchParams = {},
): ApplyResult {
  switch (kind) {
    case "orders":
      return applyOrders(state, body as IngestBodies["orders"], ctx);
    case "inventory":
      return applyInventory(state, body as IngestBodies["inventory"], ctx);
    case "shipments":
      return applyShipments(state, body as IngestBodies["shipments"], ctx);
    case "returns":
      return applyReturns(state, body as IngestBodies["returns"], ctx);
    case "dispositions":
      if (params.returnId === undefined) {
        // A programming error in the caller, not a business outcome to record.
        throw new TypeError('applyBatch("dispositions") needs params.returnId');
      }
      return applyDispositions(state, params.returnId, body as IngestBodies["dispositions"], ctx);
    default:
      throw new TypeError(`unknown ingest kind: ${String(kind)}`);
  }
}

/** `item_count` of a request record: the length of the batch array. */
export function itemCount<K extends IngestKind>(kind: K, body: IngestBodies[K]): number {
  const arrays: { [Kind in IngestKind]: (b: IngestBodies[Kind]) => unknown[] } = {
    orders: (b) => b.orders,
    inventory: (b) => b.snapshots,
    shipments: (b) => b.shipments,
    returns: (b) => b.returns,
    dispositions: (b) => b.dispositions,
  };
  return (arrays[kind] as (b: IngestBodies[K]) => unknown[])(body).length;
}
