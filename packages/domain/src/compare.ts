// Timestamps arrive as RFC 3339 strings in any offset and precision, and may come back from
// storage re-formatted; comparing them as text would call equal instants different.

interface Instant {
  ms: number;
  /** Nanoseconds below the millisecond, which Date cannot hold. */
  subMs: number;
}

const FRACTION = /\.(\d+)/;

function toInstant(value: string): Instant | undefined {
  const fraction = FRACTION.exec(value)?.[1] ?? "";
  // Parse without the fraction so engines that reject more than 3 digits still cope.
  const seconds = Date.parse(value.replace(FRACTION, ""));
  if (Number.isNaN(seconds)) return undefined;
  const nanos = Number(fraction.padEnd(9, "0").slice(0, 9));
  return { ms: seconds + Math.floor(nanos / 1e6), subMs: nanos % 1e6 };
}

/** Negative, zero or positive like a sort comparator; unparsable values compare as text. */
export function compareTimestamps(a: string, b: string): number {
  const x = toInstant(a);
  const y = toInstant(b);
  if (!x || !y) return a < b ? -1 : a > b ? 1 : 0;
  return x.ms - y.ms || x.subMs - y.subMs;
}

export function isNewer(candidate: string, stored: string): boolean {
  return compareTimestamps(candidate, stored) > 0;
}

/**
 * Deep equality of JSON values, ignoring key order; string values under keys ending in `_at`
 * (and `as_of`) compare as instants.
 */
export function sameContent(a: unknown, b: unknown, key = ""): boolean {
  if (typeof a === "string" && typeof b === "string" && isTimestampKey(key)) {
    return a === b || compareTimestamps(a, b) === 0;
  }
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a) && Array.isArray(b)) {
    return a.length === b.length && a.every((item, i) => sameContent(item, b[i], key));
  }
  const left = a as Record<string, unknown>;
  const right = b as Record<string, unknown>;
  const keys = Object.keys(left).filter((k) => left[k] !== undefined);
  if (keys.length !== Object.keys(right).filter((k) => right[k] !== undefined).length) return false;
  return keys.every((k) => Object.hasOwn(right, k) && sameContent(left[k], right[k], k));
}

function isTimestampKey(key: string): boolean {
  return key.endsWith("_at") || key === "as_of";
}
