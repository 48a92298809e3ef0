// Follows the orders change feed: upsert each order, then store the cursor that comes with it.
// In that order, a crash between the two only replays a change, which the upsert skips.
import { existsSync, readFileSync } from "node:fs";
import { rename, writeFile } from "node:fs/promises";
import type { OisrClient } from "@oisr/sdk";
import type { JsonOrderStore, UpsertOutcome } from "./json-store.ts";

export interface PollerOptions {
  client: OisrClient;
  store: JsonOrderStore;
  /** Where the feed position is kept between runs. */
  cursorFile: string;
  /** Pause at the end of the feed before polling again. */
  intervalMs?: number;
  /** Ends the loop (normally, without an error). */
  signal?: AbortSignal;
  onChange?: (outcome: UpsertOutcome, orderId: string, version: number) => void;
}

export function readCursor(file: string): string | undefined {
  return existsSync(file) ? readFileSync(file, "utf8").trim() || undefined : undefined;
}

export async function runPoller(options: PollerOptions): Promise<void> {
  const { client, store, cursorFile } = options;
  for await (const { order, cursor } of client.orders.changes({
    cursor: readCursor(cursorFile),
    intervalMs: options.intervalMs ?? 5000,
    ...(options.signal ? { signal: options.signal } : {}),
  })) {
    const outcome = await store.upsert(order);
    // null: "from the beginning" (items of the first page); stored as an empty file.
    await writeFile(`${cursorFile}.tmp`, cursor ?? "");
    await rename(`${cursorFile}.tmp`, cursorFile);
    options.onChange?.(outcome, order.id, order.version);
  }
}
