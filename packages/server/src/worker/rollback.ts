// Why a stage's transaction rolled back, in a form an operator can act on: every rollback is
// logged with its SQLSTATE and the statement that failed, and counted by reason
// (oisr_stage_rollbacks_total). A rollback that is only retried, never reported, hid a deadlock
// for months (issue 30: 4 of 600 requests showed `attempts: 2` with nothing killed).
import { isDatabaseUnavailable } from "../db/errors.ts";

/** Rollbacks that are not database errors: the worker itself chose to roll back. */
export const OWN_ROLLBACK_REASONS = ["lease_lost", "abandoned"] as const;

/**
 * SQLSTATEs named by the condition PostgreSQL gives them (Appendix A of its manual), for the ones
 * a stage can meet; any other is counted as `sqlstate_<code>` (bounded: SQLSTATEs are a closed list).
 */
const NAMED: Record<string, string> = {
  "40P01": "deadlock_detected",
  "40001": "serialization_failure",
  "55P03": "lock_not_available",
  "57014": "query_canceled",
  "23505": "unique_violation",
  "23503": "foreign_key_violation",
  "53300": "too_many_connections",
  "25P02": "in_failed_sql_transaction",
};

/** Reasons counted from the start (at 0), so an alert on any of them has a series to read. */
export const ROLLBACK_REASONS = [
  ...OWN_ROLLBACK_REASONS,
  ...new Set(Object.values(NAMED)),
  "database_unavailable",
  "error",
] as const;

export interface Rollback {
  /** A metric label: a named SQLSTATE, `sqlstate_<code>`, `database_unavailable` or `error` (not from the database). */
  reason: string;
  sqlstate: string | null;
  /** The statement that failed, whitespace folded, at most 600 characters; null when none is known. */
  statement: string | null;
  message: string;
}

// Classes 00–58, F0, HV, P0, XX: a driver's own code such as EPIPE is not one.
const SQLSTATE = /^([0-9][0-9A-Z]|F0|HV|P0|XX)[0-9A-Z]{3}$/;

/** The error and its causes (drizzle wraps the driver's error as `cause`), outermost first. */
function chain(err: unknown): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  let e: unknown = err;
  while (e && typeof e === "object" && out.length < 5) {
    out.push(e as Record<string, unknown>);
    e = (e as { cause?: unknown }).cause;
  }
  return out;
}

/** Reads the SQLSTATE and the failed statement from a driver or drizzle error. */
export function describeRollback(err: unknown): Rollback {
  const errors = chain(err);
  const sqlstate =
    errors.map((e) => e.code).find((c): c is string => typeof c === "string" && SQLSTATE.test(c)) ?? null;
  // drizzle's DrizzleQueryError carries `query`; postgres.js sets a (non-enumerable) `query` too.
  const query = errors.map((e) => e.query).find((q): q is string => typeof q === "string");
  const statement = query ? query.replace(/\s+/g, " ").trim().slice(0, 600) : null;
  const innermost = errors.at(-1);
  const message = String(innermost?.message ?? err);
  let reason: string;
  if (isDatabaseUnavailable(err)) reason = "database_unavailable";
  else if (sqlstate) reason = NAMED[sqlstate] ?? `sqlstate_${sqlstate.toLowerCase()}`;
  else reason = "error";
  return { reason, sqlstate, statement, message };
}
