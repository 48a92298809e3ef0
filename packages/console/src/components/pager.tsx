// Cursor pagination for every list: the API's pages are cursor-based (`next_cursor`, `has_more`),
// so the console keeps the cursors it came through to go back, and never counts or offsets — a
// 1M-order account opens as fast as an empty one.
import { useState } from "preact/hooks";

export interface Cursors {
  /** The cursor of the page shown (undefined: the first). */
  cursor: string | undefined;
  page: number;
  next(cursor: string): void;
  previous(): void;
  first(): void;
}

export function useCursors(resetOn: unknown[]): Cursors {
  const [stack, setStack] = useState<(string | undefined)[]>([undefined]);
  const [key, setKey] = useState(JSON.stringify(resetOn));
  const currentKey = JSON.stringify(resetOn);
  // New filters start again at the first page (a cursor carries its filters).
  if (currentKey !== key) {
    setKey(currentKey);
    setStack([undefined]);
  }
  return {
    cursor: stack[stack.length - 1],
    page: stack.length,
    next: (cursor) => setStack((s) => [...s, cursor]),
    previous: () => setStack((s) => (s.length > 1 ? s.slice(0, -1) : s)),
    first: () => setStack([undefined]),
  };
}

export function Pager(props: {
  cursors: Cursors;
  page: { next_cursor: string; has_more: boolean } | undefined;
  label: string;
}) {
  const { cursors, page, label } = props;
  return (
    <nav class="pager" aria-label={`${label} pages`}>
      <button type="button" disabled={cursors.page <= 1} onClick={cursors.first}>
        First page
      </button>
      <button type="button" disabled={cursors.page <= 1} onClick={cursors.previous}>
        Previous page
      </button>
      <span>Page {cursors.page}</span>
      <button type="button" disabled={!page?.has_more} onClick={() => page && cursors.next(page.next_cursor)}>
        Next page
      </button>
    </nav>
  );
}
