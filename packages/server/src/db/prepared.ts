// Runs one statement on an executor (the pool or a transaction) and returns its rows, whichever
// driver is underneath: `Database.rows` on both drivers, and the stage writers that hold only their
// `tx` (store/changes.ts, store/state-loader.ts, outbox/write.ts).
//
// drizzle's `execute` sends a statement with parameters unprepared, and postgres.js then asks for
// its parameter types first (Parse/Describe/Flush, then Bind/Execute): two round trips and a fresh
// plan each time. The statements sent here each have one fixed text (rows travel as array or JSON
// parameters, decision 005), so postgres.js prepares each once per connection and later calls are
// one round trip: a one-order stage sent three statements through `execute`, each round trip a turn
// of the event loop the busy accounts' stages share (decision 017, session 14). Behind a
// transaction pooler the client's `prepare: false` wins and the statement goes in one round trip
// unprepared (decision 006). The executor's own connection is used, so a statement inside a
// transaction stays in it.
//
// A statement without parameters is the same: postgres.js's `unsafe` sends one through the simple
// query protocol unless told otherwise, which PostgreSQL parses and plans afresh on every call. The
// webhook claim, the dispatcher's and the worker's next-due reads and the undispatched-events probe
// have no parameters, and in the soak (issue 26) planning them took 3 ms a call at 36 partitions,
// 13 times their execution, growing with the partitions: 36 s of planning in 3 minutes, a fifth
// of a core. They go through the extended protocol now, prepared like the rest. A statement whose
// text is made for one call (it names a partition) is sent unprepared (`once`), so no prepared
// statement per partition piles up on a connection.
import type { SQL } from "drizzle-orm";
import { PgDialect } from "drizzle-orm/pg-core";
import type { Executor } from "./database.ts";

const dialect = new PgDialect();

interface PostgresJsClient {
  unsafe(text: string, params: unknown[], options: { prepare: boolean; simple: boolean }): Promise<unknown>;
}

export async function preparedRows<T>(executor: Executor, query: SQL, prepare = true): Promise<T[]> {
  // postgres.js's session holds its client (the transaction's own connection inside a transaction);
  // PGlite's holds a PGlite, which has no `unsafe` and gains nothing from preparing (no round trips).
  const client = (executor._.session as unknown as { client?: Partial<PostgresJsClient> }).client;
  if (typeof client?.unsafe === "function") {
    const { sql: text, params } = dialect.sqlToQuery(query);
    return (await (client as PostgresJsClient).unsafe(text, params, { prepare, simple: false })) as T[];
  }
  const result: unknown = await executor.execute(query);
  // PGlite resolves to { rows }.
  return (Array.isArray(result) ? result : (result as { rows: T[] }).rows) as T[];
}
