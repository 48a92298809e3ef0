import { BatchBuilder } from "./batch.ts";
import { isNewer, sameContent } from "./compare.ts";
import { callerIntent, deriveOrderStatus } from "./derive.ts";
import { duplicateLineErrors, itemError, pointer } from "./errors.ts";
import type { OrderInput, OrdersBody } from "./input.ts";
import type { ApplyResult, DomainContext, ItemError, Order, OrderLine } from "./model.ts";
import { orNull, toAddress, toCustomer, toMetadata, toTotals } from "./normalize.ts";
import { Overlay } from "./overlay.ts";
import type { StateView } from "./state.ts";

/** Upserts orders by `external_id`; see docs/product.md §5.2 "Order". */
export function applyOrders(state: StateView, body: OrdersBody, ctx: DomainContext): ApplyResult {
  const overlay = new Overlay(state);
  const batch = new BatchBuilder();
  for (const [index, input] of body.orders.entries()) applyOrder(overlay, batch, input, index, ctx);
  return batch.finish(overlay);
}

function applyOrder(
  overlay: Overlay,
  batch: BatchBuilder,
  input: OrderInput,
  index: number,
  ctx: DomainContext,
): void {
  const at = pointer("orders", index);
  // A malformed item fails even when stale: resubmitting it should not depend on timing.
  const errors = duplicateLineErrors(input.lines, `${at}/lines`);
  const existing = overlay.orderByExternalId(input.external_id);
  if (existing && !isNewer(input.source_updated_at, existing.source_updated_at)) {
    if (errors.length > 0) batch.fail(errors);
    else batch.record(index, "order", existing.id, "stale");
    return;
  }
  if (existing) errors.push(...updateErrors(existing, input, at));
  if (errors.length > 0) {
    batch.fail(errors);
    return;
  }

  if (!existing) {
    const order = buildOrder(input, undefined, ctx);
    overlay.putOrder(order);
    batch.record(index, "order", order.id, "created");
    return;
  }
  const candidate = buildOrder(input, existing, ctx);
  if (sameContent({ ...candidate, source_updated_at: "" }, { ...existing, source_updated_at: "" })) {
    // Keep the newer watermark so an older message arriving later is still recognised as stale.
    overlay.putOrder({ ...existing, source_updated_at: input.source_updated_at });
    batch.record(index, "order", existing.id, "unchanged");
    return;
  }
  overlay.putOrder({ ...candidate, version: existing.version + 1, updated_at: ctx.now });
  batch.record(index, "order", existing.id, "updated");
}

/** Rules that protect what shipments and returns already recorded against the order. */
function updateErrors(existing: Order, input: OrderInput, at: string): ItemError[] {
  const errors: ItemError[] = [];
  if (callerIntent(input.status) === "cancelled" && existing.shipments.length > 0) {
    errors.push(
      itemError(
        `${at}/status`,
        "order_has_shipments",
        `order '${existing.external_id}' has shipments and cannot be cancelled`,
      ),
    );
  }
  const hasActivity = existing.lines.some((l) => l.quantity_shipped > 0 || l.quantity_returned > 0);
  if (hasActivity && input.currency !== existing.currency) {
    errors.push(
      itemError(
        `${at}/currency`,
        "currency_mismatch",
        `currency cannot change from ${existing.currency} once the order has shipments or returns`,
      ),
    );
  }
  input.lines.forEach((line, j) => {
    const prev = existing.lines.find((l) => l.line_id === line.line_id);
    if (!prev) return;
    if (line.quantity < prev.quantity_shipped) {
      errors.push(
        itemError(
          `${at}/lines/${j}/quantity`,
          "line_below_shipped",
          `line '${line.line_id}' quantity ${line.quantity} is below its shipped quantity ${prev.quantity_shipped}`,
        ),
      );
    }
    if (line.quantity < prev.quantity_returned) {
      errors.push(
        itemError(
          `${at}/lines/${j}/quantity`,
          "return_quantity_exceeded",
          `line '${line.line_id}' quantity ${line.quantity} is below its returned quantity ${prev.quantity_returned}`,
        ),
      );
    }
  });
  const kept = new Set(input.lines.map((l) => l.line_id));
  for (const prev of existing.lines) {
    if (kept.has(prev.line_id)) continue;
    if (prev.quantity_shipped > 0 || prev.quantity_returned > 0) {
      errors.push(
        itemError(
          `${at}/lines`,
          "line_removal_forbidden",
          `line '${prev.line_id}' has shipped or returned quantity and cannot be removed`,
        ),
      );
    }
  }
  return errors;
}

function buildOrder(input: OrderInput, existing: Order | undefined, ctx: DomainContext): Order {
  const lines: OrderLine[] = input.lines.map((line) => {
    const prev = existing?.lines.find((l) => l.line_id === line.line_id);
    return {
      line_id: line.line_id,
      sku: line.sku,
      name: orNull(line.name),
      quantity: line.quantity,
      unit_price: line.unit_price,
      quantity_shipped: prev?.quantity_shipped ?? 0,
      quantity_returned: prev?.quantity_returned ?? 0,
    };
  });
  return {
    id: existing?.id ?? ctx.newId("ord"),
    external_id: input.external_id,
    order_number: orNull(input.order_number),
    source: input.source,
    status: deriveOrderStatus(callerIntent(input.status), lines),
    currency: input.currency,
    placed_at: input.placed_at,
    customer: input.customer ? toCustomer(input.customer) : null,
    ship_to: toAddress(input.ship_to),
    bill_to: input.bill_to ? toAddress(input.bill_to) : null,
    shipping_method: orNull(input.shipping_method),
    lines,
    totals: input.totals ? toTotals(input.totals) : null,
    metadata: input.metadata ? toMetadata(input.metadata) : null,
    source_updated_at: input.source_updated_at,
    shipments: existing?.shipments ?? [],
    version: existing?.version ?? 1,
    created_at: existing?.created_at ?? ctx.now,
    updated_at: existing?.updated_at ?? ctx.now,
  };
}
