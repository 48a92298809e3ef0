// A statement of fixed text run through a transaction handle alone, prepared on PostgreSQL like
// `Database.rows` (db/postgres.ts): for the writers a stage calls with only its `tx` at hand.
//
// drizzle's `tx.execute` sends a statement with parameters unprepared, and postgres.js then asks
// for its parameter types first (Parse/Describe/Flush, then Bind/Execute): two round trips. A
// one-order stage sent three of these (its order read, its order insert, its events insert), each
// round trip a turn of the event loop the busy accounts' stages share (decision 017, session 14).
// Prepared once per connection, later calls are one round trip. Behind a transaction pooler the
// client's `prepare: false` wins and the statement goes in one round trip unprepared (decision 006).
import type { SQL } from "drizzle-orm";
import { PgDialect } from "drizzle-orm/pg-core";
import type { Executor } from "./database.ts";

const dialect = new PgDialect();

interface PostgresJsClient {
  unsafe(text: string, params: unknown[], options: { prepare: boolean }): Promise<unknown>;
}

export async function preparedRows<T>(executor: Executor, query: SQL): Promise<T[]> {
  // postgres.js's session holds its client (the transaction's own connection inside a transaction);
  // PGlite's holds a PGlite, which has no `unsafe` and gains nothing from preparing (no round trips).
  const client = (executor._.session as unknown as { client?: Partial<PostgresJsClient> }).client;
  if (typeof client?.unsafe === "function") {
    const { sql: text, params } = dialect.sqlToQuery(query);
    return (await (client as PostgresJsClient).unsafe(text, params, { prepare: true })) as T[];
  }
  const result: unknown = await executor.execute(query);
  // PGlite resolves to { rows }.
  return (Array.isArray(result) ? result : (result as { rows: T[] }).rows) as T[];
}
