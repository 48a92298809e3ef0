// The request row is the queue entry: it is written in the same transaction as its idempotency
// record, so a 202 is only ever given for work that is durably stored.
import { and, desc, eq, getTableColumns, lt, sql } from "drizzle-orm";
import type { Database } from "../db/client.ts";
import { isDatabaseUnavailable } from "../db/errors.ts";
import { requests } from "../db/schema.ts";
import { acceptBatch } from "./accept-batch.ts";
import { createBatcher } from "./batcher.ts";

export type RequestKind = "orders" | "inventory" | "shipments" | "returns" | "dispositions";
export type RequestStatus = "pending" | "processing" | "succeeded" | "failed" | "dead";

export interface IngestAck {
  message: string;
  request_id: string;
  trace_id: string;
}

export interface NewRequest {
  accountId: string;
  kind: RequestKind;
  /** "POST /ingest/…" as called: the idempotency scope. */
  endpoint: string;
  params: Record<string, string> | null;
  /** The body as received, serialised once: hashed for idempotency and stored as is. */
  bodyJson: string;
  bodyHash: string;
  itemCount: number;
  idempotencyKey: string | null;
  traceId: string;
}

export type AcceptOutcome = { kind: "accepted" | "replayed"; ack: IngestAck } | { kind: "key_reused" };

// Everything the record shows, not the body: a 1000-order body is ~700 kB that every poll of
// GET /requests/{id} would otherwise read and parse for nothing.
const { body: _body, ...recordColumns } = getTableColumns(requests);
export type RequestRow = Omit<typeof requests.$inferSelect, "body">;

export const IDEMPOTENCY_WINDOW = sql`interval '24 hours'`;

/** The record GET /requests/{id} returns. */
export function toRequestRecord(row: RequestRow) {
  return {
    request_id: row.id,
    kind: row.kind,
    status: row.status,
    trace_id: row.traceId,
    idempotency_key: row.idempotencyKey,
    item_count: row.itemCount,
    accepted_at: iso(row.acceptedAt),
    started_at: row.startedAt ? iso(row.startedAt) : null,
    completed_at: row.completedAt ? iso(row.completedAt) : null,
    attempts: row.attempts,
    result: row.status === "succeeded" ? (row.result ?? null) : null,
    errors: row.status === "failed" ? ((row.errors as unknown[]) ?? []) : [],
    error: row.status === "dead" ? (row.error ?? null) : null,
  };
}

/** PostgreSQL renders timestamptz as "2026-01-01 10:00:00.123+00"; the API speaks RFC 3339. */
export function iso(value: string): string {
  return new Date(value).toISOString();
}

export function createRequestStore(database: Database) {
  const { db } = database;

  const batched = createBatcher<NewRequest, AcceptOutcome | { kind: "error"; error: unknown }>(
    async (items) => {
      try {
        return await acceptBatch(database, items);
      } catch (err) {
        // A call the database refuses (not merely unreachable) must not fail the calls it was
        // batched with: retry each alone, so only the offending one gets the error.
        if (items.length === 1 || isDatabaseUnavailable(err)) throw err;
        return Promise.all(
          items.map((item) =>
            acceptBatch(database, [item]).then(
              (r) => r[0] as AcceptOutcome,
              (error: unknown) => ({ kind: "error" as const, error }),
            ),
          ),
        );
      }
    },
    {
      maxItems: 500,
      // Keep one statement's payload moderate: a batch of 1000-order bodies is split by size.
      maxWeight: 16 * 1024 * 1024,
      weight: (item) => item.bodyJson.length,
      concurrency: 2,
    },
  );
  const accept = async (item: NewRequest): Promise<AcceptOutcome> => {
    const outcome = await batched(item);
    if (outcome.kind === "error") throw outcome.error;
    return outcome;
  };

  // The polling path: one prepared statement (drizzle sends unnamed queries unprepared).
  const getRecord = db
    .select(recordColumns)
    .from(requests)
    .where(and(eq(requests.accountId, sql.placeholder("accountId")), eq(requests.id, sql.placeholder("id"))))
    .prepare("oisr_request_get");

  return {
    /**
     * Stores the call durably (with its idempotency record) and answers how to reply. Concurrent
     * calls share one transaction (group commit, store/batcher.ts).
     */
    accept,

    async get(accountId: string, id: string): Promise<RequestRow | undefined> {
      const rows = await getRecord.execute({ accountId, id });
      return rows[0];
    },

    /** Newest first, keyset on the acceptance sequence. */
    async list(
      accountId: string,
      filter: { status?: string; kind?: string },
      beforeSeq: number | null,
      limit: number,
    ): Promise<RequestRow[]> {
      const conditions = [eq(requests.accountId, accountId)];
      if (filter.status) conditions.push(eq(requests.status, filter.status));
      if (filter.kind) conditions.push(eq(requests.kind, filter.kind));
      if (beforeSeq !== null) conditions.push(lt(requests.seq, beforeSeq));
      return db
        .select(recordColumns)
        .from(requests)
        .where(and(...conditions))
        .orderBy(desc(requests.seq))
        .limit(limit);
    },

    /** Deletes finished requests past retention and idempotency keys past their window. */
    async purge(retentionDays: number): Promise<void> {
      await database.rows(
        sql`delete from requests where status in ('succeeded','failed','dead') and accepted_at < now() - make_interval(days => ${retentionDays})`,
      );
      await database.rows(sql`delete from idempotency_keys where created_at < now() - ${IDEMPOTENCY_WINDOW}`);
    },
  };
}

export type RequestStore = ReturnType<typeof createRequestStore>;
