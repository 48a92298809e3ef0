// Loads data for a page through the session's client; reloads when its inputs change or when the
// server comes back after an outage. Errors are sorted by api.ts: a message for the page, or null
// when the banner or the sign-in form shows it.
import type { OisrClient } from "@oisr/sdk";
import { useCallback, useEffect, useState } from "preact/hooks";
import { handleError, reloads, session } from "./api.ts";
import { useStore } from "./store.ts";

export interface Loaded<T> {
  data?: T | undefined;
  error: string | null;
  loading: boolean;
  reload: () => void;
}

export function useLoad<T>(load: (client: OisrClient) => Promise<T>, inputs: unknown[]): Loaded<T> {
  const current = useStore(session);
  const reloadCount = useStore(reloads);
  const [tick, setTick] = useState(0);
  const [state, setState] = useState<{ data?: T; error: string | null; loading: boolean }>({
    error: null,
    loading: true,
  });
  useEffect(() => {
    if (!current) return;
    let live = true;
    setState((s) => ({ ...s, loading: true }));
    load(current.client).then(
      (data) => live && setState({ data, error: null, loading: false }),
      (error: unknown) => live && setState({ error: handleError(error), loading: false }),
    );
    return () => {
      live = false;
    };
  }, [current, reloadCount, tick, ...inputs]);
  const reload = useCallback(() => setTick((t) => t + 1), []);
  return { ...state, reload };
}

/** Runs an action (a button's), with its pending state and its error or outcome text. */
export function useAction<A extends unknown[], R>(
  action: (client: OisrClient, ...args: A) => Promise<R>,
): {
  run: (...args: A) => Promise<R | undefined>;
  pending: boolean;
  error: string | null;
} {
  const current = useStore(session);
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const run = async (...args: A): Promise<R | undefined> => {
    if (!current) return undefined;
    setPending(true);
    setError(null);
    try {
      return await action(current.client, ...args);
    } catch (err) {
      setError(handleError(err));
      return undefined;
    } finally {
      setPending(false);
    }
  };
  return { run, pending, error };
}
