// What a file reader yields: items to send (with where they came from) or lines it rejected itself.

/** Where the parts of an item came from, for pointing a server error back at a file line. */
export interface SubLines {
  /** The item's array whose elements came from separate lines: "lines" (orders CSV), "items" (inventory CSV). */
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
}

export interface SourceInvalid {
  kind: "invalid";
  line: number;
  /** Pointer into the item, "" when the whole line is unusable. */
  pointer: string;
  code: string;
  message: string;
  bytes: number;
}

export type SourceEvent = SourceItem | SourceInvalid;
