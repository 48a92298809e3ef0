import { sleep as defaultSleep } from "./abort.ts";

/** A page of any list endpoint (docs/product.md §5.3). */
export interface Page<T> {
  data: T[];
  next_cursor: string;
  has_more: boolean;
}

export type FetchPage<T> = (cursor: string | undefined, signal: AbortSignal | undefined) => Promise<Page<T>>;

/** Every item of every page, following `next_cursor` while `has_more`. */
export async function* iterateItems<T>(
  fetchPage: FetchPage<T>,
  startCursor?: string,
  signal?: AbortSignal,
): AsyncGenerator<T, void, undefined> {
  let cursor = startCursor;
  for (;;) {
    const page = await fetchPage(cursor, signal);
    yield* page.data;
    // A missing or repeated cursor would loop for ever; treat it as the end.
    if (!page.has_more || !page.next_cursor || page.next_cursor === cursor) return;
    cursor = page.next_cursor;
  }
}

export interface ChangesOptions {
  /** Where to resume: a `cursor` yielded earlier. `null`/absent starts at the beginning of the feed. */
  cursor?: string | null;
  /** Pause after reaching the end of the feed before polling again, ms. Default 5 000. */
  intervalMs?: number;
  /** Aborting ends the iteration: the `for await` loop exits normally. */
  signal?: AbortSignal;
}

export interface Change<T> {
  item: T;
  /**
   * A position at or before this item. Persist it after the item is processed; resuming from it
   * never misses a change but may repeat the rest of the item's page (at-least-once; upsert by
   * `id` and `version`). It is the page's `next_cursor` on the page's last item, and the cursor
   * that fetched the page on the others — persisting `next_cursor` while items of the page are
   * still unprocessed would lose them after a crash. `null` means "the start of the feed".
   */
  cursor: string | null;
}

/**
 * An endless change feed: pages as fast as they come while `has_more`; at the end sleeps
 * `intervalMs` and polls again from the last `next_cursor`.
 */
export async function* changeFeed<T>(
  fetchPage: FetchPage<T>,
  options: ChangesOptions = {},
  sleep: (ms: number, signal?: AbortSignal) => Promise<void> = defaultSleep,
): AsyncGenerator<Change<T>, void, undefined> {
  const { signal } = options;
  const intervalMs = options.intervalMs ?? 5_000;
  let cursor: string | null = options.cursor ?? null;
  while (!signal?.aborted) {
    let page: Page<T>;
    try {
      page = await fetchPage(cursor ?? undefined, signal);
    } catch (err) {
      if (signal?.aborted) return;
      throw err;
    }
    const next = page.next_cursor || cursor;
    const advanced = next !== cursor;
    for (let i = 0; i < page.data.length; i++) {
      const last = i === page.data.length - 1;
      yield { item: page.data[i] as T, cursor: last ? next : cursor };
      if (signal?.aborted) return;
    }
    cursor = next;
    if (!page.has_more || !advanced) {
      try {
        await sleep(intervalMs, signal);
      } catch (err) {
        if (signal?.aborted) return;
        throw err;
      }
    }
  }
}

/** A resource's `list` method: a query with an optional `cursor`, then per-call options. */
export type ListCall<Q extends { cursor?: string }, T, O extends { signal?: AbortSignal }> = (
  query: Q,
  options?: O,
) => Promise<Page<T>>;

/** A resource's `iterate`: every item `list` pages through, from `query.cursor` on. */
export function iterateList<Q extends { cursor?: string }, T, O extends { signal?: AbortSignal }>(
  list: ListCall<Q, T, O>,
  query: Q,
  options?: O,
): AsyncGenerator<T, void, undefined> {
  return iterateItems(
    (cursor, signal) =>
      list({ ...query, ...(cursor ? { cursor } : {}) }, { ...options, ...(signal ? { signal } : {}) } as O),
    query.cursor,
    options?.signal,
  );
}

/**
 * A resource's `changes`: `list` as an endless change feed (changeFeed); the options other than
 * `cursor`, `intervalMs` and `signal` are the list's filters.
 */
export function listChanges<Q extends { cursor?: string }, T, O extends { signal?: AbortSignal }>(
  list: ListCall<Q, T, O>,
  options: ChangesOptions & Omit<Q, "cursor">,
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>,
): AsyncGenerator<Change<T>, void, undefined> {
  const { cursor, intervalMs, signal, ...filters } = options;
  return changeFeed(
    (c, s) => list({ ...filters, ...(c ? { cursor: c } : {}) } as Q, (s ? { signal: s } : {}) as O),
    { cursor, intervalMs, signal },
    sleep,
  );
}
