// Shared shape of list responses: {data, next_cursor, has_more}, next_cursor on every page.
import type { AccountCursors, Filters } from "../http/cursor.ts";

export function limitOf(query: Record<string, unknown>): number {
  return Number(query.limit ?? 50);
}

/** A feed page from `limit + 1` rows; an empty page keeps the position it was asked from. */
export function feedPage<T>(
  cursors: AccountCursors,
  rows: { seq: number; body: T }[],
  limit: number,
  after: number,
  filters: Filters,
) {
  const page = rows.slice(0, limit);
  return {
    data: page.map((r) => r.body),
    next_cursor: cursors.encode(page.at(-1)?.seq ?? after, filters),
    has_more: rows.length > limit,
  };
}

export function stringFilters(query: Record<string, unknown>, names: readonly string[]): Filters {
  const out: Filters = {};
  for (const name of names) out[name] = typeof query[name] === "string" ? (query[name] as string) : undefined;
  return out;
}
