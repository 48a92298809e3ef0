import { BatchBuilder } from "./batch.ts";
import { sameContent } from "./compare.ts";
import { callerIntent, deriveOrderStatus } from "./derive.ts";
import { duplicateLineErrors, itemError, pointer } from "./errors.ts";
import type { ShipmentInput, ShipmentsBody } from "./input.ts";
import type {
  ApplyResult,
  DomainContext,
  ItemError,
  Order,
  OrderShipment,
  Shipment,
  ShipmentLine,
} from "./model.ts";
import { orNull } from "./normalize.ts";
import { Overlay } from "./overlay.ts";
import { resolveOrder, type StateView } from "./state.ts";

/** Records shipments against their orders; see docs/product.md §5.2 "Shipment". */
export function applyShipments(state: StateView, body: ShipmentsBody, ctx: DomainContext): ApplyResult {
  const overlay = new Overlay(state);
  const batch = new BatchBuilder();
  for (const [index, input] of body.shipments.entries()) applyShipment(overlay, batch, input, index, ctx);
  return batch.finish(overlay);
}

function applyShipment(
  overlay: Overlay,
  batch: BatchBuilder,
  input: ShipmentInput,
  index: number,
  ctx: DomainContext,
): void {
  const at = pointer("shipments", index);
  const errors = duplicateLineErrors(input.lines, `${at}/lines`);
  const order = resolveOrder(overlay, input.order_id);
  if (!order) {
    errors.push(itemError(`${at}/order_id`, "order_not_found", `order '${input.order_id}' not found`));
    batch.fail(errors);
    return;
  }
  const existing = overlay.shipmentByExternalId(input.external_id);
  errors.push(...(existing ? resendErrors(existing, order, input, at) : newErrors(order, input, at)));
  if (errors.length > 0) {
    batch.fail(errors);
    return;
  }

  const candidate = buildShipment(input, order, existing, ctx);
  if (existing && sameContent(candidate, existing)) {
    batch.record(index, "shipment", existing.id, "unchanged");
    return;
  }
  const shipment = existing ? { ...candidate, updated_at: ctx.now } : candidate;
  overlay.putShipment(shipment);
  overlay.putOrder(withShipment(order, shipment, existing === undefined, ctx));
  batch.record(index, "shipment", shipment.id, existing ? "updated" : "created");
}

function newErrors(order: Order, input: ShipmentInput, at: string): ItemError[] {
  const errors: ItemError[] = [];
  if (order.status === "cancelled") {
    errors.push(itemError(`${at}/order_id`, "order_cancelled", `order '${order.external_id}' is cancelled`));
  }
  input.lines.forEach((line, j) => {
    const ordered = order.lines.find((l) => l.line_id === line.line_id);
    if (!ordered) {
      errors.push(
        itemError(
          `${at}/lines/${j}/line_id`,
          "line_not_found",
          `order '${order.external_id}' has no line '${line.line_id}'`,
        ),
      );
    } else if (ordered.quantity_shipped + line.quantity > ordered.quantity) {
      errors.push(
        itemError(
          `${at}/lines/${j}/quantity`,
          "quantity_exceeds_ordered",
          `line '${line.line_id}': ${ordered.quantity_shipped} shipped + ${line.quantity} exceeds ${ordered.quantity} ordered`,
        ),
      );
    }
  });
  return errors;
}

/** A shipment is a physical fact: a re-send may add tracking details, never move goods. */
function resendErrors(existing: Shipment, order: Order, input: ShipmentInput, at: string): ItemError[] {
  const errors: ItemError[] = [];
  if (existing.order_id !== order.id) {
    errors.push(
      itemError(
        `${at}/order_id`,
        "shipment_conflict",
        `shipment '${input.external_id}' already belongs to another order`,
      ),
    );
  }
  if (!sameLines(existing.lines, input.lines)) {
    errors.push(
      itemError(
        `${at}/lines`,
        "shipment_conflict",
        `shipment '${input.external_id}' was already recorded with different lines`,
      ),
    );
  }
  return errors;
}

function sameLines(a: ReadonlyArray<ShipmentLine>, b: ReadonlyArray<ShipmentLine>): boolean {
  const key = (lines: ReadonlyArray<ShipmentLine>) =>
    lines.map((l) => [l.line_id, l.quantity] as const).sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0));
  return sameContent(key(a), key(b));
}

function buildShipment(
  input: ShipmentInput,
  order: Order,
  existing: Shipment | undefined,
  ctx: DomainContext,
): Shipment {
  return {
    id: existing?.id ?? ctx.newId("shp"),
    external_id: input.external_id,
    order_id: order.id,
    carrier: input.carrier,
    service: orNull(input.service),
    tracking_number: orNull(input.tracking_number),
    tracking_url: orNull(input.tracking_url),
    shipped_at: input.shipped_at,
    location_id: orNull(input.location_id),
    // A re-send keeps the recorded lines (equal as a set, possibly listed in another order).
    lines: (existing?.lines ?? input.lines).map((l) => ({ line_id: l.line_id, quantity: l.quantity })),
    created_at: existing?.created_at ?? ctx.now,
    updated_at: existing?.updated_at ?? ctx.now,
  };
}

function summary(shipment: Shipment): OrderShipment {
  const { order_id: _order, updated_at: _updated, ...rest } = shipment;
  return rest;
}

function withShipment(order: Order, shipment: Shipment, isNew: boolean, ctx: DomainContext): Order {
  const shipped = new Map<string, number>();
  if (isNew) for (const l of shipment.lines) shipped.set(l.line_id, l.quantity);
  const lines = order.lines.map((l) => ({
    ...l,
    quantity_shipped: l.quantity_shipped + (shipped.get(l.line_id) ?? 0),
  }));
  const shipments = isNew
    ? [...order.shipments, summary(shipment)]
    : order.shipments.map((s) => (s.id === shipment.id ? summary(shipment) : s));
  return {
    ...order,
    lines,
    status: deriveOrderStatus(callerIntent(order.status), lines),
    shipments,
    version: order.version + 1,
    updated_at: ctx.now,
  };
}
