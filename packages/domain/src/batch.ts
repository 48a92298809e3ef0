import type {
  ApplyResult,
  DomainEvent,
  DomainEventType,
  ItemError,
  Outcome,
  ResultItem,
  ResultItemType,
  Return,
} from "./model.ts";
import type { Overlay } from "./overlay.ts";

/**
 * Collects what a batch produces. Items keep being validated after a failure so the caller
 * learns every offending item at once; only a batch without errors yields changes.
 */
export class BatchBuilder {
  readonly #items: ResultItem[] = [];
  readonly #errors: ItemError[] = [];
  readonly #events: DomainEvent[] = [];

  record(index: number, type: ResultItemType, id: string, outcome: Outcome): void {
    this.#items.push({ index, type, id, outcome });
  }

  fail(errors: ReadonlyArray<ItemError>): void {
    this.#errors.push(...errors);
  }

  emit(type: DomainEventType, ret: Return): void {
    this.#events.push({ type, return: ret });
  }

  finish(overlay: Overlay): ApplyResult {
    if (this.#errors.length > 0) return failed(this.#errors);
    const count = (outcome: Outcome) => this.#items.filter((i) => i.outcome === outcome).length;
    return {
      status: "succeeded",
      result: {
        created: count("created"),
        updated: count("updated"),
        unchanged: count("unchanged"),
        stale: count("stale"),
        items: this.#items,
      },
      changes: overlay.changes(),
      events: this.#events,
    };
  }
}

export function failed(errors: ReadonlyArray<ItemError>): ApplyResult {
  return { status: "failed", errors: [...errors] };
}
