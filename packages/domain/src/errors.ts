import type { ItemError, ItemErrorCode } from "./model.ts";

/** Builds an RFC 6901 JSON Pointer from path segments; append to a parent pointer to nest. */
export function pointer(...segments: ReadonlyArray<string | number>): string {
  // Called for every item of every batch (most never fail): no escaping work unless needed.
  let out = "";
  for (const segment of segments) {
    const s = String(segment);
    out += `/${s.includes("~") || s.includes("/") ? s.replaceAll("~", "~0").replaceAll("/", "~1") : s}`;
  }
  return out;
}

export function itemError(at: string, code: ItemErrorCode, message: string): ItemError {
  return { pointer: at, code, message };
}

/**
 * Lines (and return items) are addressed by `line_id`, so a repeat would make quantities
 * ambiguous; every repeat after the first is reported at its own `line_id`.
 */
export function duplicateLineErrors(lines: ReadonlyArray<{ line_id: string }>, at: string): ItemError[] {
  const seen = new Set<string>();
  const errors: ItemError[] = [];
  lines.forEach((line, j) => {
    if (seen.has(line.line_id)) {
      errors.push(
        itemError(
          at + pointer(j, "line_id"),
          "duplicate_line_id",
          `line_id '${line.line_id}' appears more than once`,
        ),
      );
    }
    seen.add(line.line_id);
  });
  return errors;
}
