// Picks the reader for a kind and file format.
import { readInventoryCsv } from "./csv-inventory.ts";
import { ORDERS_CSV, RETURNS_CSV, readNestedCsv, SHIPMENTS_CSV } from "./csv-nested.ts";
import { readDispositionsCsv, withReturnId } from "./dispositions.ts";
import { readJsonl } from "./jsonl.ts";
import type { SourceEvent } from "./types.ts";

export const KINDS = ["orders", "inventory", "shipments", "returns", "dispositions"] as const;
export type Kind = (typeof KINDS)[number];
export type Format = "jsonl" | "csv";

const CSV_READERS: Record<Kind, (path: string) => AsyncGenerator<SourceEvent>> = {
  orders: (path) => readNestedCsv(path, ORDERS_CSV),
  inventory: readInventoryCsv,
  shipments: (path) => readNestedCsv(path, SHIPMENTS_CSV),
  returns: (path) => readNestedCsv(path, RETURNS_CSV),
  dispositions: readDispositionsCsv,
};

/** The format named by --format, else the file's extension (.csv; anything else is JSON Lines). */
export function formatOf(path: string, explicit?: string): Format {
  if (explicit === "csv" || explicit === "jsonl") return explicit;
  if (explicit !== undefined) throw new UsageError(`--format must be jsonl or csv, not "${explicit}"`);
  return path.toLowerCase().endsWith(".csv") ? "csv" : "jsonl";
}

export function openSource(kind: Kind, format: Format, path: string): AsyncGenerator<SourceEvent> {
  if (format === "csv") return CSV_READERS[kind](path);
  return kind === "dispositions" ? withReturnId(readJsonl(path)) : readJsonl(path);
}

/** A mistake in the command line: printed without a stack, exit code 2. */
export class UsageError extends Error {
  override name = "UsageError";
}
