// Dispositions are sent per return (`POST /ingest/returns/{return_id}/dispositions`), so each one
// in a file names its return: a `return_id` member (JSON Lines) or column (CSV), the return's
// server id or its RMA (external_id). It is taken off the item and becomes the item's `target`;
// batches never mix returns (batches.ts). CSV: one row per disposition, the rows of one return
// adjacent (other rows just start another batch): return_id, external_id, line_id, quantity,
// outcome, condition, location_id, decided_at, note.
import { isCsvError, readCsv } from "./csv.ts";
import { integer } from "./csv-groups.ts";
import { invalid, type SourceEvent } from "./types.ts";

/** The API's limit on a path identifier. */
const MAX_RETURN_ID = 128;

export async function* withReturnId(events: AsyncIterable<SourceEvent>): AsyncGenerator<SourceEvent> {
  for await (const event of events) {
    if (event.kind !== "item") {
      yield event;
      continue;
    }
    const { return_id: returnId, ...disposition } = event.item;
    if (typeof returnId !== "string" || returnId === "" || returnId.length > MAX_RETURN_ID) {
      yield invalid(
        event.line,
        "missing_key",
        `each disposition names its return in "return_id" (its id or RMA, 1-${MAX_RETURN_ID} characters)`,
        event.bytes,
        "/return_id",
      );
      continue;
    }
    yield { ...event, item: disposition, target: returnId };
  }
}

async function* dispositionRows(path: string): AsyncGenerator<SourceEvent> {
  for await (const record of readCsv(path)) {
    if (isCsvError(record)) {
      yield invalid(record.line, "invalid_csv", record.message, record.bytes);
      continue;
    }
    const item: Record<string, unknown> = { ...record.values };
    if (record.values.quantity !== undefined) item.quantity = integer(record.values.quantity);
    yield { kind: "item", item, line: record.line, bytes: record.bytes };
  }
}

export function readDispositionsCsv(path: string): AsyncGenerator<SourceEvent> {
  return withReturnId(dispositionRows(path));
}
