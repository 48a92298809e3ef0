// `last_used_at`, written at most once a minute per key and process, off the request path
// (decision 013). The authorize statement already returns each key's stored value; a key whose value
// is missing or older than LAST_USED_RESOLUTION_MS, and that this process has not queued within that
// time, is queued here, and the queue is written about a second later by one statement for every
// key in it. A busy key thus costs one small UPDATE a minute per process, and a first use shows
// within a second or two.
import { LAST_USED_RESOLUTION_MS } from "@oisr/contract";

export interface KeyUse {
  id: string;
  atMs: number;
}

export interface LastUsedRecorder {
  /** A call authenticated with key `id`, whose stored last_used_at is `storedMs` (epoch ms or null). */
  seen(id: string, storedMs: number | null, nowMs: number): void;
  /** Writes what is queued now, and waits for every write started before. */
  flush(): Promise<void>;
}

export function createLastUsedRecorder(
  write: (used: KeyUse[]) => Promise<void>,
  options: { delayMs?: number } = {},
): LastUsedRecorder {
  const delayMs = options.delayMs ?? 1000;
  /** When this process last queued each key; entries older than the resolution are dropped. */
  const recent = new Map<string, number>();
  let queued = new Map<string, number>();
  let latestMs = 0;
  let timer: NodeJS.Timeout | undefined;
  let writing: Promise<void> = Promise.resolve();

  function flush(): Promise<void> {
    if (timer) clearTimeout(timer);
    timer = undefined;
    for (const [id, atMs] of recent) {
      if (latestMs - atMs >= LAST_USED_RESOLUTION_MS) recent.delete(id);
    }
    if (queued.size === 0) return writing;
    const batch = [...queued].map(([id, atMs]) => ({ id, atMs }));
    queued = new Map();
    writing = writing
      .then(() => write(batch))
      .catch(() => {
        // The value is to the minute and advisory: a failed write (the database away, or closed
        // under the timer) is tried again by the key's next call instead of being retried here.
        for (const { id, atMs } of batch) if (recent.get(id) === atMs) recent.delete(id);
      });
    return writing;
  }

  return {
    seen(id, storedMs, nowMs) {
      latestMs = Math.max(latestMs, nowMs);
      if (storedMs !== null && nowMs - storedMs < LAST_USED_RESOLUTION_MS) return;
      const queuedMs = recent.get(id);
      if (queuedMs !== undefined && nowMs - queuedMs < LAST_USED_RESOLUTION_MS) return;
      recent.set(id, nowMs);
      queued.set(id, nowMs);
      if (!timer) {
        timer = setTimeout(() => void flush(), delayMs);
        // Never keeps a process alive; closing the store flushes instead.
        timer.unref();
      }
    },
    flush,
  };
}
