// The database handle every store works with, whichever driver is underneath (db/client.ts).
import type { SQL } from "drizzle-orm";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { locate } from "../paths.ts";
import type * as schema from "./schema.ts";

export const migrationsFolder = locate("drizzle/meta/_journal.json").replace(/\/meta\/_journal\.json$/, "");

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;
/** A drizzle transaction handle; same query surface as Db. */
export type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];
export type Executor = Db | Tx;

export interface Database {
  readonly db: Db;
  readonly driver: "postgres" | "pglite";
  /** Runs raw SQL and returns its rows, whichever driver is underneath. */
  rows<T>(query: SQL, executor?: Executor): Promise<T[]>;
  /**
   * As `rows`, for a statement whose text is made for this one call (it names a partition): sent
   * unprepared, where `rows` prepares each text once per connection (db/prepared.ts).
   */
  once<T>(query: SQL, executor?: Executor): Promise<T[]>;
  /**
   * Wakes listeners on every process sharing this database (LISTEN/NOTIFY). A `pg_notify` inside a
   * statement does the same, sent when its transaction commits.
   */
  notify(channel: string, payload?: string): Promise<void>;
  listen(channel: string, onNotify: (payload: string) => void): Promise<() => Promise<void>>;
  ping(): Promise<void>;
  close(): Promise<void>;
  /** PGlite on a directory: records the HTTP port in the data directory's lock (data-dir-lock.ts). */
  setLockPort?(port: number): void;
}

/** Connections a process opens to PostgreSQL at most unless told otherwise (OISR_DATABASE_POOL_SIZE). */
export const DEFAULT_POOL_SIZE = 10;

export interface DatabaseOptions {
  databaseUrl?: string;
  /** PGlite data directory, or `memory://`. */
  dataDir?: string;
  /** Connections per process (postgres.js); DEFAULT_POOL_SIZE when not given. */
  maxConnections?: number;
  /**
   * `transaction`: PostgreSQL is reached through a transaction pooler (PgBouncer): no prepared
   * statements, and no LISTEN on the pooled connections (see db/postgres.ts).
   */
  pooling?: "none" | "transaction";
  /** A direct or session-pooled URL for LISTEN when `pooling` is `transaction`; else short polling. */
  listenUrl?: string;
  /** A read replica (db/read-source.ts): no migrations, no LISTEN. */
  readOnly?: boolean;
  /** The `requests` partition interval (partitions/plan.ts); a day when not given. */
  partitionIntervalMs?: number;
}
