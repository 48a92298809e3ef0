// A request's record at the moment a transition sets its final status, for its `request.<status>`
// event: settleFailed's statement returns these columns; finishStage knows them all (startStage
// read the ones no stage changes, and it sets completed_at itself). The caller adds the outcome it
// already holds in memory (a 1000-order result need not travel back from the database).
import {
  type FinalRequestRecord,
  isFinalRecord,
  isoInstant,
  type StoredRequest,
  toRequestRecord,
} from "@oisr/contract";
import { sql } from "drizzle-orm";

/** What a final status's event shows besides the outcome: the columns the record maps. */
export const RECORD_COLUMNS = sql.raw(
  "r.id, r.kind, r.status, r.trace_id, r.idempotency_key, r.api_key_id, r.item_count, r.accepted_at, r.started_at, r.completed_at, r.attempts",
);

export interface RecordRow {
  id: string;
  kind: StoredRequest["kind"];
  status: StoredRequest["status"];
  trace_id: string;
  idempotency_key: string | null;
  api_key_id: string | null;
  item_count: number;
  accepted_at: string;
  started_at: string | null;
  completed_at: string;
  attempts: number;
}

/** The record of a request that has just reached its final status, as its event shows it. */
export function finalRecordOf(request: StoredRequest): FinalRequestRecord {
  const record = toRequestRecord(request);
  if (!isFinalRecord(record)) throw new Error(`request ${request.id} is not final`);
  return record;
}

/** The record of a row that has just reached its final status (the outcome comes from the caller). */
export function finalRecord(
  row: RecordRow,
  outcome: Pick<StoredRequest, "result" | "errors" | "error">,
): FinalRequestRecord {
  return finalRecordOf({
    id: row.id,
    kind: row.kind,
    status: row.status,
    traceId: row.trace_id,
    idempotencyKey: row.idempotency_key,
    apiKeyId: row.api_key_id,
    itemCount: row.item_count,
    acceptedAt: row.accepted_at,
    startedAt: row.started_at,
    completedAt: row.completed_at,
    attempts: row.attempts,
    ...outcome,
  });
}

/** Epoch milliseconds of a timestamp text, rounded up: PostgreSQL keeps microseconds, records show milliseconds. */
function ceilMillis(at: string): number {
  const ms = Date.parse(isoInstant(at));
  const fraction = /\.(\d+)/.exec(at)?.[1] ?? "";
  return /[1-9]/.test(fraction.slice(3)) ? ms + 1 : ms;
}

/**
 * A stage's `completed_at` (RFC 3339, milliseconds): the worker's clock as it records the outcomes,
 * never before `appliedAt` (the stamp on the resources the stage wrote; a resource's `created_at`
 * read 19-99 ms after its request's `completed_at` when the database's transaction start was used)
 * nor before a member's `started_at` (the database's clock, which may lag or lead the worker's).
 * Taken here rather than in the statement, so the records and their events are known before it.
 */
export function completionTime(appliedAt: string, startedAts: readonly string[]): string {
  let at = Math.max(Date.now(), Date.parse(appliedAt));
  for (const started of startedAts) at = Math.max(at, ceilMillis(started));
  return new Date(at).toISOString();
}
