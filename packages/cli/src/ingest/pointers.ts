// Maps an API error pointer (`/orders/3/lines/1/quantity`, into the body sent) back to the file:
// the item's line (or, for CSV groups, the row of `lines/1`) and a pointer into that item.
import type { Failure } from "./state.ts";

export interface SentItem {
  /** The item's index in its batch as read from the file. */
  batchIndex: number;
  line: number;
  subLines?: { key: string; lines: number[] } | undefined;
}

export interface ApiItemError {
  pointer: string;
  code: string;
  message: string;
}

export interface MappedErrors {
  /** Failures by batch-local item index. */
  byItem: Map<number, Failure[]>;
  /** Errors that name no item of the body (they fail the whole batch). */
  unmapped: ApiItemError[];
}

export function mapErrors(
  errors: readonly ApiItemError[],
  root: string,
  sent: readonly SentItem[],
  requestId?: string,
): MappedErrors {
  const byItem = new Map<number, Failure[]>();
  const unmapped: ApiItemError[] = [];
  for (const error of errors) {
    const parts = error.pointer.split("/");
    const item = parts[1] === root && /^\d+$/.test(parts[2] ?? "") ? sent[Number(parts[2])] : undefined;
    if (!item) {
      unmapped.push(error);
      continue;
    }
    const rest = parts.slice(3);
    let line = item.line;
    if (item.subLines && rest[0] === item.subLines.key && /^\d+$/.test(rest[1] ?? "")) {
      line = item.subLines.lines[Number(rest[1])] ?? line;
    }
    const failure: Failure = {
      line,
      pointer: rest.length > 0 ? `/${rest.join("/")}` : "",
      code: error.code,
      message: error.message,
      ...(requestId ? { request_id: requestId } : {}),
    };
    const list = byItem.get(item.batchIndex) ?? [];
    list.push(failure);
    byItem.set(item.batchIndex, list);
  }
  return { byItem, unmapped };
}
