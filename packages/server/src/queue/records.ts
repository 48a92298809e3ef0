// Reading request records: what GET /requests and GET /requests/{id} show.
import {
  isoInstant,
  type RequestRecord,
  toRequestRecord as requestRecordOf,
  type StoredRequest,
} from "@oisr/contract";
import { and, desc, eq, getTableColumns, gte, lt, sql } from "drizzle-orm";
import type { Database } from "../db/client.ts";
import { primaryReads, type ReadSource } from "../db/read-source.ts";
import { requests } from "../db/schema.ts";
import { storedBody } from "./sql.ts";

// Everything the record shows, not the body: a 1000-order body is ~700 kB that every poll of
// GET /requests/{id} would otherwise read and parse for nothing.
const { body: _body, legacyBody: _legacyBody, ...recordColumns } = getTableColumns(requests);
export type RequestRow = Omit<typeof requests.$inferSelect, "body" | "legacyBody">;

/** The record GET /requests/{id} returns: the contract's mapping of this row. */
export function requestRecordOfRow(row: RequestRow): RequestRecord {
  // The columns are plain text and jsonb; the table's CHECK constraints and the worker, the only
  // writer of outcomes, keep them to the spec's enums and shapes.
  // A bulk retry claims an original by pointing retried_by at the original itself until its retry
  // is accepted (retry.ts): not yet a retry to show.
  const retriedBy = row.retriedBy === row.id ? null : row.retriedBy;
  return requestRecordOf({ ...row, retriedBy } as StoredRequest);
}

/** PostgreSQL renders timestamptz as "2026-01-01 10:00:00.123+00"; the API speaks RFC 3339. */
export const iso = (value: string): string => isoInstant(value);

/**
 * `reads` serves the list, which tolerates lag (a replica, decision 021); `get` reads the primary,
 * where a request is found the moment its 202 is sent.
 */
export function createRecordReader(database: Database, reads: ReadSource = primaryReads(database)) {
  const { db } = database;
  // The polling path: one prepared statement (drizzle sends unnamed queries unprepared).
  const getRecord = db
    .select(recordColumns)
    .from(requests)
    .where(and(eq(requests.accountId, sql.placeholder("accountId")), eq(requests.id, sql.placeholder("id"))))
    .prepare("oisr_request_get");

  return {
    async get(accountId: string, id: string): Promise<RequestRow | undefined> {
      const rows = await getRecord.execute({ accountId, id });
      return rows[0];
    },

    /**
     * The submitted body as stored, as text (sent as is, never parsed here), with the acceptance
     * time the caller checks retention against.
     */
    async body(accountId: string, id: string): Promise<{ acceptedAt: string; json: string } | undefined> {
      const [row] = await database.rows<{ accepted_at: string; json: string }>(
        sql`select accepted_at, ${storedBody}::text as json from requests
             where account_id = ${accountId} and id = ${id}`,
      );
      return row && { acceptedAt: row.accepted_at, json: row.json };
    },

    /**
     * Newest first, keyset on the acceptance sequence. The time bounds filter the walk down the
     * account's sequence index: a window far in the past reads the newer rows on the way.
     */
    async list(
      accountId: string,
      filter: { status?: string; kind?: string; accepted_since?: string; accepted_until?: string },
      beforeSeq: number | null,
      limit: number,
    ): Promise<RequestRow[]> {
      const conditions = [eq(requests.accountId, accountId)];
      if (filter.status) conditions.push(eq(requests.status, filter.status));
      if (filter.kind) conditions.push(eq(requests.kind, filter.kind));
      if (filter.accepted_since) conditions.push(gte(requests.acceptedAt, filter.accepted_since));
      if (filter.accepted_until) conditions.push(lt(requests.acceptedAt, filter.accepted_until));
      if (beforeSeq !== null) conditions.push(lt(requests.seq, beforeSeq));
      return reads.run((db) =>
        db
          .select(recordColumns)
          .from(requests)
          .where(and(...conditions))
          .orderBy(desc(requests.seq))
          .limit(limit),
      );
    },
  };
}
