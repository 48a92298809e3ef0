// PostgreSQL through postgres.js, directly or behind a transaction pooler (PgBouncer in
// `pool_mode = transaction`, as managed offerings put in front by default).
//
// Behind a transaction pooler each transaction (or lone statement) may run on another server
// connection, so nothing may outlive one:
// - no protocol-level prepared statements: PgBouncer 1.18 (Debian's) forwards their executions to
//   connections that never saw them ("prepared statement … does not exist", or another client's
//   statement of the same name). `prepare: false` on the client wins over each call's `prepare: true`.
// - no Flush outside a transaction: unprepared, postgres.js sent Parse/Describe/Flush and only then
//   Bind/Execute/Sync; PgBouncer takes that Flush for a transaction's end, hands the connection back
//   and drops the description, and the call waits forever (bench/pooler-latency.ts hung; asyncpg hit
//   the same, MagicStack/asyncpg#1065). Our patch of postgres.js (decision 006) sends unprepared
//   statements in one Parse/Bind/Execute/Sync and lets the server infer parameter types.
// - one query at a time per connection (no pipelining), only transaction-scoped locks and
//   `set local`, and LISTEN on a connection of its own (`listenUrl`, direct or session-pooled) or
//   else short polling. NOTIFY is sent at commit and goes through the pooler fine.
import { type SQL, sql } from "drizzle-orm";
import { readMigrationFiles } from "drizzle-orm/migrator";
import { PgDialect } from "drizzle-orm/pg-core";
import type postgresType from "postgres";
import { addArrayTypes } from "./array-types.ts";
import {
  type Database,
  type DatabaseOptions,
  type Db,
  DEFAULT_POOL_SIZE,
  type Executor,
  migrationsFolder,
} from "./database.ts";
import { preparedRows } from "./prepared.ts";
import * as schema from "./schema.ts";

/** Key of the transaction advisory lock held while migrating ("oisr" + "mig" as bytes). */
const MIGRATION_LOCK_KEY = 0x6f697372_6d6967n;

/**
 * How often a process without LISTEN looks for work (the payload its listeners get). A wake-up is
 * one cheap query per worker and dispatcher; 50 ms keeps 202 → succeeded within the pooler goal.
 */
export const POLL_INTERVAL_MS = 50;
export const POLL_PAYLOAD = "oisr:poll";

type Sql = ReturnType<typeof postgresType>;

function connect(postgres: typeof postgresType, url: string, max: number, pooled: boolean): Sql {
  return postgres(url, {
    max,
    prepare: !pooled,
    // postgres.js's own pipelining stays on behind a pooler too: each pipelined statement ends with
    // its Sync, so PgBouncer (transaction mode) runs each as a transaction of its own. With
    // `max_pipeline: 1` (tried in session 5) a call could get its 202 before the insert of its
    // request was visible to other connections: 1–18 of 400 concurrent ingest → GET pairs answered
    // 404, through PgBouncer and on a direct connection alike; with pipelining, none (session 6,
    // contract test "a 202 is readable at once").
    // postgres.js reads the array types on each new connection; through a pooler that query can
    // fail after the pooler accepted the connection (PgBouncer: "server login has been failing"),
    // and that failure is an unhandled rejection, which ends the process. Parameters' types are
    // inferred by the server anyway when nothing is prepared; the array types are read once by
    // openPostgres instead (array-types.ts), or a text[] would come back as its literal "{a,b}".
    ...(pooled ? { fetch_types: false } : {}),
    onnotice: () => {},
    connect_timeout: 5,
    // Keep idle connections short-lived so a restarted server is noticed quickly.
    idle_timeout: 30,
    // Reconnect delay in seconds. The driver's default grows with the failures of the whole pool up to
    // 20 s, so after a database restart calls would wait that long for a connection instead of a
    // quick 503, and keep waiting after the database is back.
    backoff: (retries: number) => Math.min(0.05 * 2 ** retries, 1),
  });
}

/**
 * drizzle's migrator creates its schema and table and applies the journal without a lock, so two
 * processes starting at once on an empty database both ran migration 0000 and one died on a
 * duplicate type or schema (issue 14: 4 of 6 rounds). Here the whole migration runs in one
 * transaction that first takes a transaction advisory lock: the others wait, then find every
 * migration applied. Transaction-scoped, so it holds behind a transaction pooler too.
 */
async function migrateSerialised(db: Db): Promise<void> {
  const dialect = new PgDialect();
  const migrations = readMigrationFiles({ migrationsFolder });
  await db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${MIGRATION_LOCK_KEY.toString()}::bigint)`);
    // The migrator's session, on this transaction: its own "transaction" is this one.
    const session = {
      execute: (query: SQL) => tx.execute(query),
      all: async (query: SQL) => [...((await tx.execute(query)) as unknown as unknown[])],
      transaction: (run: (t: typeof tx) => Promise<void>) => run(tx),
    };
    await dialect.migrate(migrations, session as never, { migrationsFolder });
  });
}

export async function openPostgres(url: string, options: DatabaseOptions): Promise<Database> {
  const { default: postgres } = await import("postgres");
  const { drizzle } = await import("drizzle-orm/postgres-js");
  const pooled = options.pooling === "transaction";
  const client = connect(postgres, url, options.maxConnections ?? DEFAULT_POOL_SIZE, pooled);
  const db = drizzle({ client, schema }) as unknown as Db;
  // A read replica (db/read-source.ts) is migrated by replication, and may be down at start: its
  // array types are read on its first successful ping instead.
  let typesRead = !pooled;
  const readTypes = async () => {
    if (typesRead) return;
    await addArrayTypes(client);
    typesRead = true;
  };
  if (!options.readOnly) {
    await migrateSerialised(db);
    // After drizzle's own parsers are set and the migrations' types exist, as on a direct connection.
    await readTypes();
  }
  // LISTEN on a connection of its own: the pool's own on a direct URL, a separate one behind a pooler.
  const listener = options.readOnly
    ? undefined
    : !pooled
      ? client
      : options.listenUrl
        ? connect(postgres, options.listenUrl, 1, true)
        : undefined;
  return {
    db,
    driver: "postgres",
    rows: <T>(query: SQL, executor: Executor = db) => preparedRows<T>(executor, query),
    once: <T>(query: SQL, executor: Executor = db) => preparedRows<T>(executor, query, false),
    notify: async (channel, payload = "") => {
      await client.notify(channel, payload);
    },
    listen: async (channel, onNotify) => {
      if (listener) {
        const { unlisten } = await listener.listen(channel, onNotify);
        return unlisten;
      }
      const timer = setInterval(() => onNotify(POLL_PAYLOAD), POLL_INTERVAL_MS);
      timer.unref();
      return async () => clearInterval(timer);
    },
    ping: async () => {
      await readTypes();
      await client`select 1`;
    },
    close: async () => {
      if (listener && listener !== client) await listener.end({ timeout: 5 });
      await client.end({ timeout: 5 });
    },
  };
}
