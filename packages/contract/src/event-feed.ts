// GET /events, as the server and the mock both answer it: how its filters travel in a cursor, and
// its 404. A `type` filter may name several types; the cursor holds them as one canonical string,
// so the same set in any order or with repeats is the same filter (a cursor replayed with
// `?type=b&type=a` after `?type=a&type=b` is not "other filters").
import type { Filters } from "./cursor.ts";
import { notFound } from "./problems.ts";

/** The feed's filters from a validated query (`type` is a string or a list of them). */
export function eventFeedFilters(query: Record<string, unknown>): Filters {
  const raw = query.type;
  const types = (Array.isArray(raw) ? raw : raw === undefined ? [] : [raw]).map(String);
  const since = query.created_since;
  return {
    type: types.length > 0 ? [...new Set(types)].sort().join(",") : undefined,
    created_since: typeof since === "string" ? since : undefined,
  };
}

/** The types a feed's filters keep, or undefined for every type. */
export function eventTypesOf(filters: Filters): string[] | undefined {
  return filters.type ? filters.type.split(",") : undefined;
}

/** The 404 of an event id that is not one of the account's listed events (another account's looks the same). */
export const eventNotFound = (id: string) => notFound(`No event with id "${id}".`);
