// Picks the reader for a kind and file format.
import { readInventoryCsv } from "./csv-inventory.ts";
import { readOrdersCsv } from "./csv-orders.ts";
import { readJsonl } from "./jsonl.ts";
import type { SourceEvent } from "./types.ts";

export const KINDS = ["orders", "inventory", "shipments", "returns"] as const;
export type Kind = (typeof KINDS)[number];
export type Format = "jsonl" | "csv";

const CSV_READERS: Partial<Record<Kind, (path: string) => AsyncGenerator<SourceEvent>>> = {
  orders: readOrdersCsv,
  inventory: readInventoryCsv,
};

/** The format named by --format, else the file's extension (.csv; anything else is JSON Lines). */
export function formatOf(path: string, explicit?: string): Format {
  if (explicit === "csv" || explicit === "jsonl") return explicit;
  if (explicit !== undefined) throw new UsageError(`--format must be jsonl or csv, not "${explicit}"`);
  return path.toLowerCase().endsWith(".csv") ? "csv" : "jsonl";
}

export function openSource(kind: Kind, format: Format, path: string): AsyncGenerator<SourceEvent> {
  if (format === "jsonl") return readJsonl(path);
  const reader = CSV_READERS[kind];
  if (!reader) throw new UsageError(`CSV is supported for orders and inventory; use JSON Lines for ${kind}`);
  return reader(path);
}

/** A mistake in the command line: printed without a stack, exit code 2. */
export class UsageError extends Error {
  override name = "UsageError";
}
