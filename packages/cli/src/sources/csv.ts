// RFC 4180 CSV, streamed: comma-separated, fields optionally in double quotes ("" escapes a quote;
// quoted fields may span lines). The first record is the header. Yields one object per record.
import { readLines } from "./lines.ts";

export interface CsvRecord {
  /** 1-based line on which the record starts. */
  line: number;
  /** Cell values by header name; empty cells are omitted. */
  values: Record<string, string>;
  bytes: number;
}

export interface CsvError {
  line: number;
  message: string;
  bytes: number;
}

/** Splits one record; returns undefined while a quoted field is still open at the end of `text`. */
export function parseCsvRecord(text: string): string[] | undefined {
  const fields: string[] = [];
  let field = "";
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"' && field === "") quoted = true;
    else if (c === ",") {
      fields.push(field);
      field = "";
    } else field += c;
  }
  if (quoted) return undefined;
  fields.push(field);
  return fields;
}

export async function* readCsv(path: string): AsyncGenerator<CsvRecord | CsvError> {
  let header: string[] | undefined;
  let pending = "";
  let start = 0;
  for await (const { number, text, bytes } of readLines(path)) {
    if (pending === "") start = number;
    const joined = pending === "" ? text : `${pending}\n${text}`;
    const fields = parseCsvRecord(joined);
    if (!fields) {
      pending = joined;
      continue;
    }
    pending = "";
    if (!header) {
      header = fields.map((h) => h.trim());
      continue;
    }
    if (fields.length === 1 && fields[0]?.trim() === "") continue;
    if (fields.length !== header.length) {
      yield { line: start, message: `expected ${header.length} fields, found ${fields.length}`, bytes };
      continue;
    }
    const values: Record<string, string> = {};
    header.forEach((name, i) => {
      const value = fields[i]?.trim() ?? "";
      if (value !== "") values[name] = value;
    });
    yield { line: start, values, bytes };
  }
  if (pending !== "") yield { line: start, message: "unterminated quoted field", bytes: 0 };
}

export function isCsvError(record: CsvRecord | CsvError): record is CsvError {
  return "message" in record;
}
