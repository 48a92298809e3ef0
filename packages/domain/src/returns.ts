import { BatchBuilder } from "./batch.ts";
import { isNewer, sameContent } from "./compare.ts";
import { dispositionedByLine, isActiveReturn, isFullyDispositioned, returnedByLine } from "./derive.ts";
import { duplicateLineErrors, itemError, pointer } from "./errors.ts";
import type { ReturnInput, ReturnsBody } from "./input.ts";
import type { ApplyResult, DomainContext, ItemError, Order, Return, ReturnStatus } from "./model.ts";
import { orNull } from "./normalize.ts";
import { Overlay } from "./overlay.ts";
import { refreshQuantityReturned } from "./quantity-returned.ts";
import { emitReturnVersion } from "./return-events.ts";
import { canTransition, isReceived } from "./return-status.ts";
import { resolveOrder, type StateView } from "./state.ts";

/** Upserts returns (RMAs) by `external_id`; see docs/product.md §5.2 "Return". */
export function applyReturns(state: StateView, body: ReturnsBody, ctx: DomainContext): ApplyResult {
  const overlay = new Overlay(state);
  const batch = new BatchBuilder();
  for (const [index, input] of body.returns.entries()) applyReturn(overlay, batch, input, index, ctx);
  return batch.finish(overlay);
}

function applyReturn(
  overlay: Overlay,
  batch: BatchBuilder,
  input: ReturnInput,
  index: number,
  ctx: DomainContext,
): void {
  const at = pointer("returns", index);
  const errors = duplicateLineErrors(input.items, `${at}/items`);
  const existing = overlay.returnByExternalId(input.external_id);
  if (existing && !isNewer(input.source_updated_at, existing.source_updated_at)) {
    if (errors.length > 0) batch.fail(errors);
    else batch.record(index, "return", existing.id, "stale");
    return;
  }
  const order = resolveOrder(overlay, input.order_id);
  if (!order) {
    errors.push(itemError(`${at}/order_id`, "order_not_found", `order '${input.order_id}' not found`));
    batch.fail(errors);
    return;
  }
  const status = input.status ?? existing?.status ?? "requested";
  errors.push(...statusErrors(existing?.status, input.status, at));
  errors.push(...itemErrors(overlay, order, existing, input, status, at));
  if (errors.length > 0) {
    batch.fail(errors);
    return;
  }

  const candidate = buildReturn(input, order, existing, status, ctx);
  if (
    existing &&
    sameContent({ ...candidate, source_updated_at: "" }, { ...existing, source_updated_at: "" })
  ) {
    // Keep the newer watermark so an older message arriving later is still recognised as stale.
    overlay.putReturn({ ...existing, source_updated_at: input.source_updated_at });
    batch.record(index, "return", existing.id, "unchanged");
    return;
  }
  const next = existing ? { ...candidate, version: existing.version + 1, updated_at: ctx.now } : candidate;
  overlay.putReturn(next);
  batch.record(index, "return", next.id, existing ? "updated" : "created");
  emitReturnVersion(batch, existing, next);
  refreshQuantityReturned(overlay, order.id, ctx);
  if (existing && existing.order_id !== order.id) {
    refreshQuantityReturned(overlay, existing.order_id, ctx);
  }
}

function statusErrors(
  from: ReturnStatus | undefined,
  to: ReturnStatus | null | undefined,
  at: string,
): ItemError[] {
  if (!to || to === from) return [];
  if (to === "completed") {
    return [
      itemError(
        `${at}/status`,
        "invalid_status_transition",
        "a return becomes completed only when its items are fully dispositioned",
      ),
    ];
  }
  if (from && !canTransition(from, to)) {
    return [
      itemError(`${at}/status`, "invalid_status_transition", `cannot move a return from ${from} to ${to}`),
    ];
  }
  return [];
}

function itemErrors(
  overlay: Overlay,
  order: Order,
  existing: Return | undefined,
  input: ReturnInput,
  status: ReturnStatus,
  at: string,
): ItemError[] {
  const errors: ItemError[] = [];
  // Only active returns claim quantity, so a rejected or cancelled version needs no room.
  const claimedElsewhere = isActiveReturn(status)
    ? returnedByLine(overlay.returnsForOrder(order.id).filter((r) => r.id !== existing?.id))
    : undefined;
  const done = dispositionedByLine(existing?.dispositions ?? []);
  input.items.forEach((item, j) => {
    const line = order.lines.find((l) => l.line_id === item.line_id);
    if (!line) {
      errors.push(
        itemError(
          `${at}/items/${j}/line_id`,
          "line_not_found",
          `order '${order.external_id}' has no line '${item.line_id}'`,
        ),
      );
      return;
    }
    const dispositioned = done.get(item.line_id) ?? 0;
    if (item.quantity < dispositioned) {
      errors.push(
        itemError(
          `${at}/items/${j}/quantity`,
          "item_below_dispositioned",
          `line '${item.line_id}' quantity ${item.quantity} is below its dispositioned quantity ${dispositioned}`,
        ),
      );
    }
    const claimed = claimedElsewhere?.get(item.line_id) ?? 0;
    if (claimedElsewhere && claimed + item.quantity > line.quantity) {
      errors.push(
        itemError(
          `${at}/items/${j}/quantity`,
          "return_quantity_exceeded",
          `line '${item.line_id}': ${claimed} already returned + ${item.quantity} exceeds ${line.quantity} ordered`,
        ),
      );
    }
  });
  const kept = new Set(input.items.map((i) => i.line_id));
  for (const [lineId, dispositioned] of done) {
    if (kept.has(lineId) || dispositioned === 0) continue;
    errors.push(
      itemError(
        `${at}/items`,
        "item_below_dispositioned",
        `line '${lineId}' has ${dispositioned} dispositioned and cannot be removed from the return`,
      ),
    );
  }
  return errors;
}

function buildReturn(
  input: ReturnInput,
  order: Order,
  existing: Return | undefined,
  requested: ReturnStatus,
  ctx: DomainContext,
): Return {
  const done = dispositionedByLine(existing?.dispositions ?? []);
  const items = input.items.map((item) => ({
    line_id: item.line_id,
    sku: item.sku ?? order.lines.find((l) => l.line_id === item.line_id)?.sku ?? "",
    quantity: item.quantity,
    reason_code: item.reason_code,
    note: orNull(item.note),
    quantity_dispositioned: done.get(item.line_id) ?? 0,
  }));
  const dispositions = existing?.dispositions ?? [];
  // Shrinking items down to what is already dispositioned finishes the return, as the last
  // disposition would have.
  const status =
    requested === "received" && dispositions.length > 0 && isFullyDispositioned({ items })
      ? "completed"
      : requested;
  return {
    id: existing?.id ?? ctx.newId("ret"),
    external_id: input.external_id,
    order_id: order.id,
    order_external_id: order.external_id,
    status,
    reason: orNull(input.reason),
    customer_note: orNull(input.customer_note),
    items,
    tracking: input.tracking
      ? { carrier: input.tracking.carrier, tracking_number: input.tracking.tracking_number }
      : null,
    requested_at: input.requested_at,
    received_at: existing?.received_at ?? (isReceived(status) ? ctx.now : null),
    completed_at: existing?.completed_at ?? (status === "completed" ? ctx.now : null),
    dispositions,
    source_updated_at: input.source_updated_at,
    version: existing?.version ?? 1,
    created_at: existing?.created_at ?? ctx.now,
    updated_at: existing?.updated_at ?? ctx.now,
  };
}
