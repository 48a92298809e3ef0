// Groups consecutive CSV records that share a key (an order's rows, a snapshot's rows) into one item.
import { type CsvError, type CsvRecord, isCsvError, readCsv } from "./csv.ts";
import { invalid, type SourceEvent } from "./types.ts";

export interface Group {
  records: CsvRecord[];
  bytes: number;
  /** The rows of one key did not fit in `maxRows` and were split over several groups. */
  split: boolean;
}

/** Turns one group into an item, or an error event pinned to a line of the group. */
export type BuildItem = (group: Group) => SourceEvent;

export async function* readCsvGroups(
  path: string,
  keyOf: (record: CsvRecord) => string | undefined,
  build: BuildItem,
  /** A group is closed at this many rows, and the next rows open a new one. */
  maxRows = Number.POSITIVE_INFINITY,
): AsyncGenerator<SourceEvent> {
  let group: Group | undefined;
  let groupKey: string | undefined;
  for await (const record of readCsv(path) as AsyncGenerator<CsvRecord | CsvError>) {
    if (isCsvError(record)) {
      yield invalid(record.line, "invalid_csv", record.message, record.bytes);
      continue;
    }
    const key = keyOf(record);
    if (key === undefined) {
      yield invalid(record.line, "missing_key", "the row lacks the column that groups rows", record.bytes);
      continue;
    }
    let split = false;
    if (group && (key !== groupKey || group.records.length >= maxRows)) {
      split = key === groupKey;
      if (split) group.split = true;
      yield build(group);
      group = undefined;
    }
    group ??= { records: [], bytes: 0, split };
    groupKey = key;
    group.records.push(record);
    group.bytes = record.bytes;
  }
  if (group) yield build(group);
}

/** Sets `a.b.c` style paths on an object. */
export function setPath(target: Record<string, unknown>, path: string, value: unknown): void {
  const parts = path.split(".");
  let node = target;
  for (const part of parts.slice(0, -1)) {
    const next = node[part];
    if (next === undefined || typeof next !== "object" || next === null) node[part] = {};
    node = node[part] as Record<string, unknown>;
  }
  node[parts[parts.length - 1] as string] = value;
}

/** "12" -> 12; anything else stays a string, so that the API's validation reports it with a pointer. */
export function integer(text: string): number | string {
  return /^-?\d+$/.test(text) ? Number(text) : text;
}
