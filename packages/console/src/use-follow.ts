// Follows a change feed through the SDK's `changes` iterator (it pages while there is more, then
// polls every `intervalMs` from its last cursor) and keeps the latest state of each changed
// resource, newest change first. Restarts from its last cursor after the server comes back.
import { useEffect, useState } from "preact/hooks";
import { handleError, reloads, session } from "./api.ts";
import { useStore } from "./store.ts";

export interface Followed<T> {
  items: T[];
  error: string | null;
}

/** At most this many rows: the table shows recent changes, the paginated feed shows the rest. */
const KEEP = 100;

export function useFollow<T extends { id: string }>(
  follow: (
    client: NonNullable<ReturnType<typeof session.get>>["client"],
    cursor: string | null,
    signal: AbortSignal,
  ) => AsyncGenerator<{ item: T; cursor: string | null }>,
  inputs: unknown[],
): Followed<T> {
  const current = useStore(session);
  const reloadCount = useStore(reloads);
  const [state, setState] = useState<Followed<T>>({ items: [], error: null });
  const [cursor, setCursor] = useState<string | null>(null);
  useEffect(() => {
    if (!current) return;
    const controller = new AbortController();
    (async () => {
      try {
        for await (const change of follow(current.client, cursor, controller.signal)) {
          setCursor(change.cursor);
          setState((s) => ({
            error: null,
            items: [change.item, ...s.items.filter((i) => i.id !== change.item.id)].slice(0, KEEP),
          }));
        }
      } catch (error) {
        if (!controller.signal.aborted) setState((s) => ({ ...s, error: handleError(error) }));
      }
    })();
    return () => controller.abort();
  }, [current, reloadCount, ...inputs]);
  return state;
}
