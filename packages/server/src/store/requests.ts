// The request row is the queue entry: it is written in the same transaction as its idempotency
// record, so a 202 is only ever given for work that is durably stored.
import { randomUUID } from "node:crypto";
import { and, desc, eq, lt, sql } from "drizzle-orm";
import type { Database, Executor } from "../db/client.ts";
import { idempotencyKeys, requests } from "../db/schema.ts";

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
  body: unknown;
  bodyHash: string;
  itemCount: number;
  idempotencyKey: string | null;
  traceId: string;
}

export type AcceptOutcome = { kind: "accepted" | "replayed"; ack: IngestAck } | { kind: "key_reused" };

export type RequestRow = typeof requests.$inferSelect;

const IDEMPOTENCY_WINDOW = sql`interval '24 hours'`;

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

  async function insertRequest(tx: Executor, input: NewRequest, id: string): Promise<void> {
    await tx.insert(requests).values({
      accountId: input.accountId,
      id,
      kind: input.kind,
      status: "pending",
      traceId: input.traceId,
      idempotencyKey: input.idempotencyKey,
      params: input.params,
      body: input.body,
      itemCount: input.itemCount,
    });
  }

  return {
    async accept(input: NewRequest): Promise<AcceptOutcome> {
      const id = randomUUID();
      const ack: IngestAck = { message: "Accepted for processing.", request_id: id, trace_id: input.traceId };
      const outcome = await db.transaction(async (tx): Promise<AcceptOutcome> => {
        if (input.idempotencyKey !== null) {
          // Claim the key; a key older than the window is taken over as if new.
          const claimed = await tx
            .insert(idempotencyKeys)
            .values({
              accountId: input.accountId,
              endpoint: input.endpoint,
              key: input.idempotencyKey,
              bodyHash: input.bodyHash,
              requestId: id,
              response: ack,
            })
            .onConflictDoUpdate({
              target: [idempotencyKeys.accountId, idempotencyKeys.endpoint, idempotencyKeys.key],
              set: { bodyHash: input.bodyHash, requestId: id, response: ack, createdAt: sql`now()` },
              setWhere: lt(idempotencyKeys.createdAt, sql`now() - ${IDEMPOTENCY_WINDOW}`),
            })
            .returning({ requestId: idempotencyKeys.requestId });
          if (claimed.length === 0) {
            const [existing] = await tx
              .select()
              .from(idempotencyKeys)
              .where(
                and(
                  eq(idempotencyKeys.accountId, input.accountId),
                  eq(idempotencyKeys.endpoint, input.endpoint),
                  eq(idempotencyKeys.key, input.idempotencyKey),
                ),
              );
            if (!existing) throw new Error("idempotency key vanished during claim");
            return existing.bodyHash === input.bodyHash
              ? { kind: "replayed", ack: existing.response as IngestAck }
              : { kind: "key_reused" };
          }
        }
        await insertRequest(tx, input, id);
        return { kind: "accepted", ack };
      });
      if (outcome.kind === "accepted")
        await database.notify("oisr_requests", input.accountId).catch(() => {});
      return outcome;
    },

    async get(accountId: string, id: string): Promise<RequestRow | undefined> {
      const rows = await db
        .select()
        .from(requests)
        .where(and(eq(requests.accountId, accountId), eq(requests.id, id)));
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
        .select()
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
