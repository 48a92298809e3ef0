// What a file reader yields: items to send (with where they came from) or lines it rejected itself.

/** Where the parts of an item came from, for pointing a server error back at a file line. */
export interface SubLines {
  /** The item's array whose elements came from separate lines: "lines" (orders and shipments CSV), "items" (inventory and returns CSV). */
  key: string;
  lines: number[];
}

export interface SourceItem {
  kind: "item";
  item: Record<string, unknown>;
  /** 1-based line of the item (its first line for multi-line CSV groups). */
  line: number;
  subLines?: SubLines;
  bytes: number;
  /** The parent the item is sent under, for kinds ingested per parent: a disposition's return. */
  target?: string;
}

/** One reason an item failed, at a file line. */
export interface LineError {
  /** 1-based line in the file. */
  line: number;
  /** JSON Pointer into the item, "" when the whole item or line is unusable. */
  pointer: string;
  code: string;
  message: string;
}

export interface SourceInvalid {
  kind: "invalid";
  /** The item's (first) line. */
  line: number;
  errors: LineError[];
  bytes: number;
}

export function invalid(
  line: number,
  code: string,
  message: string,
  bytes: number,
  pointer = "",
): SourceInvalid {
  return { kind: "invalid", line, errors: [{ line, pointer, code, message }], bytes };
}

export type SourceEvent = SourceItem | SourceInvalid;
