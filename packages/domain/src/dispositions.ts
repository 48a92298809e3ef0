import { BatchBuilder, failed } from "./batch.ts";
import { isFullyDispositioned } from "./derive.ts";
import { itemError, pointer } from "./errors.ts";
import type { DispositionInput, DispositionsBody } from "./input.ts";
import type { ApplyResult, Disposition, DomainContext, Return } from "./model.ts";
import { orNull } from "./normalize.ts";
import { Overlay } from "./overlay.ts";
import { emitReturnVersion } from "./return-events.ts";
import { resolveReturn, type StateView } from "./state.ts";

/**
 * Records dispositions for one return, addressed by server id or external_id (RMA).
 * Each disposition makes a new version of the return, so every event carries the return
 * exactly as that disposition left it.
 */
export function applyDispositions(
  state: StateView,
  returnRef: string,
  body: DispositionsBody,
  ctx: DomainContext,
): ApplyResult {
  const overlay = new Overlay(state);
  const ret = resolveReturn(overlay, returnRef);
  // The return comes from the path, not the body, so the pointer names the whole request.
  if (!ret) {
    return failed([itemError("", "return_not_found", `return '${returnRef}' not found`)]);
  }
  if (ret.status === "rejected" || ret.status === "cancelled") {
    return failed([itemError("", "return_closed", `return '${ret.external_id}' is ${ret.status}`)]);
  }
  const batch = new BatchBuilder();
  for (const [index, input] of body.dispositions.entries())
    applyDisposition(overlay, batch, ret.id, input, index, ctx);
  return batch.finish(overlay);
}

function applyDisposition(
  overlay: Overlay,
  batch: BatchBuilder,
  returnId: string,
  input: DispositionInput,
  index: number,
  ctx: DomainContext,
): void {
  const at = pointer("dispositions", index);
  const ret = overlay.returnById(returnId);
  if (!ret) throw new Error(`return ${returnId} vanished from the working state`);
  // Dispositions are facts: a repeated external_id is a re-send, whatever it says now.
  const known = input.external_id
    ? ret.dispositions.find((d) => d.external_id === input.external_id)
    : undefined;
  if (known) {
    batch.record(index, "disposition", known.id, "unchanged");
    return;
  }
  const item = ret.items.find((i) => i.line_id === input.line_id);
  if (!item) {
    batch.fail([
      itemError(
        `${at}/line_id`,
        "line_not_in_return",
        `return '${ret.external_id}' has no item for line '${input.line_id}'`,
      ),
    ]);
    return;
  }
  if (item.quantity_dispositioned + input.quantity > item.quantity) {
    batch.fail([
      itemError(
        `${at}/quantity`,
        "disposition_quantity_exceeded",
        `line '${input.line_id}': ${item.quantity_dispositioned} dispositioned + ${input.quantity} exceeds ${item.quantity} returned`,
      ),
    ]);
    return;
  }
  const disposition = buildDisposition(input, returnId, ctx);
  const next = withDisposition(ret, disposition, ctx);
  overlay.putReturn(next);
  batch.record(index, "disposition", disposition.id, "created");
  emitReturnVersion(batch, ret, next, true);
}

function buildDisposition(input: DispositionInput, returnId: string, ctx: DomainContext): Disposition {
  return {
    id: ctx.newId("dsp"),
    external_id: orNull(input.external_id),
    return_id: returnId,
    line_id: input.line_id,
    quantity: input.quantity,
    outcome: input.outcome,
    condition: orNull(input.condition),
    location_id: orNull(input.location_id),
    decided_at: input.decided_at,
    note: orNull(input.note),
    created_at: ctx.now,
  };
}

/** The first disposition means the goods arrived; the last one finishes the return. */
function withDisposition(ret: Return, disposition: Disposition, ctx: DomainContext): Return {
  const items = ret.items.map((i) =>
    i.line_id === disposition.line_id
      ? { ...i, quantity_dispositioned: i.quantity_dispositioned + disposition.quantity }
      : i,
  );
  const status = ret.status === "completed" || isFullyDispositioned({ items }) ? "completed" : "received";
  return {
    ...ret,
    items,
    dispositions: [...ret.dispositions, disposition],
    status,
    received_at: ret.received_at ?? ctx.now,
    completed_at: ret.completed_at ?? (status === "completed" ? ctx.now : null),
    version: ret.version + 1,
    updated_at: ctx.now,
  };
}
