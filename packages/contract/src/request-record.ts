// What an accepted ingest call looks like on the wire: the 202 acknowledgement with its headers,
// and the record GET /requests and GET /requests/{id} show. The server builds it from a database
// row, the mock from its in-memory entry; both hand this mapping the same neutral shape.
import type { AccountCursors, Filters } from "./cursor.ts";
import type { components } from "./generated/schema.d.ts";
import { type Page, pageOf } from "./pages.ts";
import { notFound } from "./problems.ts";

type Schemas = components["schemas"];
export type RequestRecord = Schemas["RequestRecord"];
export type IngestAccepted = Schemas["IngestAccepted"];
export type RequestQueue = Schemas["RequestQueue"];

/** A moment as the source holds it: epoch milliseconds (the mock) or a timestamp text (PostgreSQL). */
export type Instant = number | string;

/** A request as stored, whatever the store. */
export interface StoredRequest {
  id: string;
  kind: Schemas["RequestKind"];
  status: Schemas["RequestStatus"];
  traceId: string;
  idempotencyKey: string | null;
  /** The API key that submitted it; null for requests accepted before API keys existed. */
  apiKeyId: string | null;
  itemCount: number;
  acceptedAt: Instant;
  startedAt: Instant | null;
  completedAt: Instant | null;
  attempts: number;
  /** The request this one sends again, and the newest request sending this one again (decision 014). */
  retryOf?: string | null;
  retriedBy?: string | null;
  /** Each outcome field may be left over from an earlier attempt; only the one the status names shows. */
  result: Schemas["RequestResult"] | null;
  errors: Schemas["ItemError"][] | null;
  error: Schemas["DeadError"] | null;
}

/** PostgreSQL's text of a timestamptz in a UTC session: "2026-01-01 10:00:00.123456+00". */
const POSTGRES_UTC = /^(\d{4}-\d\d-\d\d) (\d\d:\d\d:\d\d)(?:\.(\d{1,6}))?\+00$/;

/**
 * RFC 3339 in UTC with milliseconds; PostgreSQL's "2026-01-01 10:00:00.123+00" is read as such.
 * That text is rewritten rather than parsed: `Date` reads it through V8's fallback parser, and this
 * one function was 4 % of the worker's CPU under the fairness bench (three per request record,
 * every record in its `request.*` event too). Sub-millisecond digits are cut, as `Date` cuts them.
 */
export const isoInstant = (at: Instant): string => {
  const m = typeof at === "string" ? POSTGRES_UTC.exec(at) : null;
  if (m) return `${m[1]}T${m[2]}.${(m[3] ?? "").padEnd(3, "0").slice(0, 3)}Z`;
  return new Date(at).toISOString();
};

export function toRequestRecord(request: StoredRequest): RequestRecord {
  return {
    request_id: request.id,
    kind: request.kind,
    status: request.status,
    trace_id: request.traceId,
    idempotency_key: request.idempotencyKey,
    api_key_id: request.apiKeyId,
    item_count: request.itemCount,
    accepted_at: isoInstant(request.acceptedAt),
    started_at: request.startedAt === null ? null : isoInstant(request.startedAt),
    completed_at: request.completedAt === null ? null : isoInstant(request.completedAt),
    attempts: request.attempts,
    retry_of: request.retryOf ?? null,
    retried_by: request.retriedBy ?? null,
    result: request.status === "succeeded" ? request.result : null,
    errors: request.status === "failed" ? (request.errors ?? []) : [],
    error: request.status === "dead" ? request.error : null,
  };
}

/**
 * A GET /requests page from up to `limit + 1` rows, newest first by acceptance sequence. On the
 * last page the cursor still points past its final row, so a later call sees only older rows: none.
 */
export function requestPage<R extends { seq: number }>(
  cursors: AccountCursors,
  rows: readonly R[],
  toRecord: (row: R) => RequestRecord,
  options: { limit: number; before: number | null; filters: Filters },
): Promise<Page<RequestRecord>> {
  const { limit, before, filters } = options;
  return pageOf(cursors, rows, {
    limit,
    from: before ?? 0,
    filters,
    positionOf: (r) => r.seq,
    map: toRecord,
  });
}

export function ingestAccepted(requestId: string, traceId: string): IngestAccepted {
  return { message: "Accepted for processing.", request_id: requestId, trace_id: traceId };
}

/** The headers of a 202: where to poll, how soon, and whether this answers an earlier call. */
export function acceptedHeaders(requestsPath: string, requestId: string, replayed: boolean) {
  return {
    Location: `${requestsPath}/${requestId}`,
    "Retry-After": "1",
    ...(replayed ? { "Idempotent-Replayed": "true" } : {}),
  };
}

/** 404 for GET /requests/{request_id}: no such request of the account, or one past the retention. */
export const requestNotFound = (id: string) => notFound(`No request ${id} in this account.`);

/**
 * GET /requests/queue from what the server's statement and the mock's entries both know: how many
 * requests are open, how many of those a worker has started, and the queue's head.
 */
export function toRequestQueue(
  open: number,
  processing: number,
  head: { id: string; status: "pending" | "processing"; acceptedAt: Instant } | undefined,
): RequestQueue {
  const started = Math.min(open, processing);
  return {
    open,
    pending: open - started,
    processing: started,
    oldest_open: head
      ? { request_id: head.id, status: head.status, accepted_at: isoInstant(head.acceptedAt) }
      : null,
  };
}
