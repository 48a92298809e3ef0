// Opaque page cursors that carry their filters, byte-for-byte the server's format (base64url of
// `{"p": position, "f": filters}`): a cursor replayed with other filters is refused.
import { base64url, fromBase64 } from "../ids.ts";
import { HttpProblem } from "./problem.ts";

export type Filters = Record<string, string | number | undefined>;

function canonical(filters: Filters): Record<string, string | number> {
  const out: Record<string, string | number> = {};
  for (const key of Object.keys(filters).sort()) {
    const value = filters[key];
    if (value !== undefined && value !== "") out[key] = value;
  }
  return out;
}

export function encodeCursor<P>(position: P, filters: Filters): string {
  return base64url(new TextEncoder().encode(JSON.stringify({ p: position, f: canonical(filters) })));
}

const invalid = () => new HttpProblem(400, "invalid_cursor", "The cursor is not one this API issued.");

/** The position a cursor points at; `null` without a cursor. Throws 400 `invalid_cursor`. */
export function decodeCursor<P>(cursor: string | undefined, filters: Filters): P | null {
  if (cursor === undefined || cursor === "") return null;
  let parsed: { p?: P; f?: unknown };
  try {
    parsed = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(fromBase64(cursor)));
  } catch {
    throw invalid();
  }
  if (parsed === null || typeof parsed !== "object" || parsed.p === undefined) throw invalid();
  if (JSON.stringify(parsed.f) !== JSON.stringify(canonical(filters))) {
    throw new HttpProblem(
      400,
      "invalid_cursor",
      "The cursor was issued for other filters; send the same filters as the call that returned it, or none with a fresh list.",
    );
  }
  return parsed.p;
}
