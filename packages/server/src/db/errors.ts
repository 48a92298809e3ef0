// Errors that mean "the database cannot be reached right now": answered 503, retried later.
const DB_UNAVAILABLE = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "EPIPE",
  "CONNECT_TIMEOUT",
  "CONNECTION_CLOSED",
  "CONNECTION_ENDED",
  "CONNECTION_DESTROYED",
  "57P01",
  "57P02",
  "57P03",
  "08000",
  "08003",
  "08006",
  "08001",
  "08004",
  // "database … is not currently accepting connections" (ALTER DATABASE … ALLOW_CONNECTIONS false).
  "55000",
  // PgBouncer's own errors ("server login has been failing", "query_wait_timeout", "no more
  // connections allowed"): the database behind the pooler cannot be reached.
  "08P01",
]);

export function isDatabaseUnavailable(err: unknown): boolean {
  const e = err as { code?: string; cause?: { code?: string }; errno?: string };
  return (
    DB_UNAVAILABLE.has(String(e?.code)) ||
    DB_UNAVAILABLE.has(String(e?.cause?.code)) ||
    DB_UNAVAILABLE.has(String(e?.errno))
  );
}
