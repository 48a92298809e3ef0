import type { BatchBuilder } from "./batch.ts";
import type { Return } from "./model.ts";

/**
 * Decision 001: each new version of a return emits `return.created` or `return.updated`;
 * a disposition adds `return.disposition.created`; entering `completed` or `cancelled` adds
 * `return.completed` / `return.cancelled`. All carry the return at that version.
 */
export function emitReturnVersion(
  batch: BatchBuilder,
  previous: Return | undefined,
  next: Return,
  withDisposition = false,
): void {
  batch.emit(previous ? "return.updated" : "return.created", next);
  if (withDisposition) batch.emit("return.disposition.created", next);
  if (next.status === previous?.status) return;
  if (next.status === "completed") batch.emit("return.completed", next);
  if (next.status === "cancelled") batch.emit("return.cancelled", next);
}
