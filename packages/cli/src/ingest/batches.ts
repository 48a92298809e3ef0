// Cuts the item stream into batches by count, by serialized size (the API takes 5 MiB per body)
// and by target: items sent under a parent (a disposition's return) share one per batch.
import { invalid, type SourceEvent, type SourceInvalid, type SourceItem } from "../sources/types.ts";

/** Stays clear of the 5 MiB body limit, leaving room for the envelope. */
export const MAX_BATCH_BYTES = 4.5 * 1024 * 1024;

export interface BatchItem extends SourceItem {
  /** The item as sent, serialized once: it is hashed for the idempotency key and measured here. */
  json: string;
}

export interface Batch {
  index: number;
  items: BatchItem[];
  /** The parent every item of the batch is sent under (dispositions: the return), if the kind has one. */
  target?: string | undefined;
  /** Bytes of the file consumed up to the batch's last item. */
  bytes: number;
}

export async function* toBatches(
  events: AsyncIterable<SourceEvent>,
  batchSize: number,
  onInvalid: (invalid: SourceInvalid) => void,
  maxBytes = MAX_BATCH_BYTES,
): AsyncGenerator<Batch> {
  let index = 0;
  let items: BatchItem[] = [];
  let target: string | undefined;
  let size = 0;
  let bytes = 0;
  const flush = (): Batch => {
    const batch: Batch = { index: index++, items, bytes, ...(target === undefined ? {} : { target }) };
    items = [];
    size = 0;
    return batch;
  };
  for await (const event of events) {
    bytes = Math.max(bytes, event.bytes);
    if (event.kind === "invalid") {
      onInvalid(event);
      continue;
    }
    const json = JSON.stringify(event.item);
    const itemBytes = Buffer.byteLength(json) + 1;
    if (itemBytes > maxBytes) {
      onInvalid(
        invalid(
          event.line,
          "item_too_large",
          `the item is ${itemBytes} bytes serialized; a request body holds at most 5 MiB`,
          event.bytes,
        ),
      );
      continue;
    }
    if (items.length > 0 && (size + itemBytes > maxBytes || event.target !== target)) yield flush();
    target = event.target;
    items.push({ ...event, json });
    size += itemBytes;
    if (items.length >= batchSize) yield flush();
  }
  if (items.length > 0) yield flush();
}
