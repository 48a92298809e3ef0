import type {
  CallerOrderStatus,
  Disposition,
  OrderLine,
  OrderStatus,
  Return,
  ReturnStatus,
} from "./model.ts";

/**
 * The caller's intent behind a stored or submitted status: only a hold or a cancellation
 * is remembered; anything else (including derived values sent by mistake) means "open".
 */
export function callerIntent(status: string | null | undefined): CallerOrderStatus {
  return status === "cancelled" || status === "on_hold" ? status : "open";
}

/** Decision 001: cancelled, then on_hold (a hold matters more than progress), then progress. */
export function deriveOrderStatus(
  intent: CallerOrderStatus,
  lines: ReadonlyArray<Pick<OrderLine, "quantity" | "quantity_shipped">>,
): OrderStatus {
  if (intent !== "open") return intent;
  if (lines.length > 0 && lines.every((l) => l.quantity_shipped >= l.quantity)) return "shipped";
  if (lines.some((l) => l.quantity_shipped > 0)) return "partially_shipped";
  return "open";
}

/** Rejected and cancelled returns no longer claim quantity on the order. */
export function isActiveReturn(status: ReturnStatus): boolean {
  return status !== "rejected" && status !== "cancelled";
}

export function returnedByLine(returns: ReadonlyArray<Return>): Map<string, number> {
  const totals = new Map<string, number>();
  for (const ret of returns) {
    if (!isActiveReturn(ret.status)) continue;
    for (const item of ret.items) {
      totals.set(item.line_id, (totals.get(item.line_id) ?? 0) + item.quantity);
    }
  }
  return totals;
}

export function dispositionedByLine(dispositions: ReadonlyArray<Disposition>): Map<string, number> {
  const totals = new Map<string, number>();
  for (const d of dispositions) totals.set(d.line_id, (totals.get(d.line_id) ?? 0) + d.quantity);
  return totals;
}

export function isFullyDispositioned(ret: Pick<Return, "items">): boolean {
  return ret.items.every((item) => item.quantity_dispositioned >= item.quantity);
}
