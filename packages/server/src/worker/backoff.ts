/** Exponential backoff with equal jitter (half fixed, half random), capped at one minute: attempt 1 waits up to base, then 2x, 4x… */
export function backoffMs(attempt: number, baseMs: number, capMs = 60_000, random = Math.random): number {
  const ceiling = Math.min(capMs, baseMs * 2 ** Math.max(0, attempt - 1));
  return Math.round(ceiling / 2 + random() * (ceiling / 2));
}
