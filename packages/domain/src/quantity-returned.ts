import { returnedByLine } from "./derive.ts";
import type { DomainContext } from "./model.ts";
import type { Overlay } from "./overlay.ts";

/**
 * Recomputes an order's `quantity_returned` from its active returns and bumps its version
 * only when a line actually changed.
 */
export function refreshQuantityReturned(overlay: Overlay, orderId: string, ctx: DomainContext): void {
  const order = overlay.orderById(orderId);
  if (!order) {
    // Orders are never deleted, so this means the caller did not preload what it should.
    throw new Error(`order ${orderId} is referenced by a return but missing from the state view`);
  }
  const totals = returnedByLine(overlay.returnsForOrder(orderId));
  const lines = order.lines.map((l) => ({ ...l, quantity_returned: totals.get(l.line_id) ?? 0 }));
  if (lines.every((l, i) => l.quantity_returned === order.lines[i]?.quantity_returned)) return;
  overlay.putOrder({ ...order, lines, version: order.version + 1, updated_at: ctx.now });
}
