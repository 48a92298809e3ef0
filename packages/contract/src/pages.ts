// List answers, the same for every list: `{data, next_cursor, has_more}` from up to `limit + 1`
// rows (the extra row only says there is more), `next_cursor` on every page, the last and empty
// ones included, so a client can always store it and call again later.
import type { AccountCursors, Filters } from "./cursor.ts";
import { isDecimalInteger } from "./query-integers.ts";

export const DEFAULT_LIMIT = 50;

export interface Page<T> {
  data: T[];
  next_cursor: string;
  has_more: boolean;
}

/**
 * `limit` as validated (1-200; Ajv made it a number), or the default. A string is read only when it
 * is decimal digits (guardIntegerQuery): never with Number, which reads `0x10` as 16.
 */
export function limitOf(query: Record<string, unknown>): number {
  const limit = query.limit ?? DEFAULT_LIMIT;
  if (typeof limit === "number" && Number.isSafeInteger(limit)) return limit;
  if (typeof limit === "string" && isDecimalInteger(limit)) return Number.parseInt(limit, 10);
  throw new TypeError(`limit ${JSON.stringify(limit)} was not validated`);
}

/** The named filters among the query's parameters; anything but a string counts as absent. */
export function stringFilters(query: Record<string, unknown>, names: readonly string[]): Filters {
  const out: Filters = {};
  for (const name of names) {
    const value = query[name];
    out[name] = typeof value === "string" ? value : undefined;
  }
  return out;
}

export interface PageOptions<R, T, P> {
  limit: number;
  /** The position the call started from: an empty page's cursor keeps it. */
  from: P;
  filters: Filters;
  positionOf: (row: R) => P;
  map: (row: R) => T;
}

export async function pageOf<R, T, P>(
  cursors: AccountCursors,
  rows: readonly R[],
  options: PageOptions<R, T, P>,
): Promise<Page<T>> {
  const page = rows.slice(0, options.limit);
  const last = page.at(-1);
  return {
    data: page.map(options.map),
    next_cursor: await cursors.encode(
      last === undefined ? options.from : options.positionOf(last),
      options.filters,
    ),
    has_more: rows.length > options.limit,
  };
}

/**
 * A newest-first page keyed by id (webhook subscriptions, their deliveries, API keys): `rows` are
 * up to `limit + 1` rows with ids below `before`, the id the previous page ended at (null for the
 * first page); an empty page keeps the position it was asked from.
 */
export function idPage<R extends { id: string }, T>(
  cursors: AccountCursors,
  rows: readonly R[],
  limit: number,
  before: string | null,
  map: (row: R) => T,
): Promise<Page<T>> {
  return pageOf(cursors, rows, { limit, from: before ?? "", filters: {}, positionOf: (r) => r.id, map });
}

/** Rows of a feed after a position: each with its feed sequence. */
export type FeedRows<T> = readonly { seq: number; body: T }[];

/**
 * One change-feed call, as every feed (orders, returns, events; server and mock) answers it: the
 * cursor is decoded against the filters sent (a cursor made with others is refused), `read` gets
 * the filters the cursor carries, the position after which to read, and how many rows to read
 * (one past the limit, which only says there is more).
 */
export async function readFeed<T>(
  cursors: AccountCursors,
  query: Record<string, unknown>,
  sentFilters: Filters,
  read: (filters: Filters, after: number, take: number) => FeedRows<T> | Promise<FeedRows<T>>,
): Promise<Page<T>> {
  const { position, filters } = await cursors.decode<number>(query.cursor, sentFilters);
  const limit = limitOf(query);
  const after = position ?? 0;
  return feedPage(cursors, await read(filters, after, limit + 1), limit, after, filters);
}

/** A change-feed page: rows carry their feed sequence, the position cursors hold. */
export function feedPage<T>(
  cursors: AccountCursors,
  rows: FeedRows<T>,
  limit: number,
  after: number,
  filters: Filters,
): Promise<Page<T>> {
  return pageOf(cursors, rows, { limit, from: after, filters, positionOf: (r) => r.seq, map: (r) => r.body });
}
