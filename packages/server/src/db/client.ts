// One database handle over either driver: postgres.js when DATABASE_URL is set, embedded PGlite
// otherwise. Everything above this file sees the same drizzle `Db` and the same notify/listen.
import { existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import type { PGlite } from "@electric-sql/pglite";
import { type SQL, sql } from "drizzle-orm";
import { type PgDatabase, PgDialect, type PgQueryResultHKT } from "drizzle-orm/pg-core";
import { locate } from "../paths.ts";
import { acquireDataDirLock } from "./data-dir-lock.ts";
import { pgliteTemplate } from "./pglite-template.ts";
import * as schema from "./schema.ts";

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

export interface DatabaseOptions {
  databaseUrl?: string;
  /** PGlite data directory, or `memory://`. */
  dataDir?: string;
  /** Connections per process (postgres.js). */
  maxConnections?: number;
}

export const migrationsFolder = locate("drizzle/meta/_journal.json").replace(/\/meta\/_journal\.json$/, "");

function rowsOf<T>(result: unknown): T[] {
  // postgres.js resolves to an array of rows; PGlite to { rows }.
  return (Array.isArray(result) ? result : (result as { rows: T[] }).rows) as T[];
}

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  return options.databaseUrl
    ? openPostgres(options.databaseUrl, options.maxConnections ?? 10)
    : openPglite(options.dataDir ?? "./.oisr-data");
}

/** Key of the session advisory lock held while migrating ("oisr" + "mig" as bytes). */
const MIGRATION_LOCK_KEY = 0x6f697372_6d6967n;

/**
 * drizzle's migrator creates its schema and table and applies the journal without a lock, so two
 * processes starting at once on an empty database both run migration 0000 and one dies on a
 * duplicate type or schema (issue 14: 4 of 6 rounds). A session advisory lock on one reserved
 * connection makes the others wait; the next one in then finds every migration applied. The lock is
 * session-level, so it belongs to that connection and is released with it if the process dies.
 */
async function migrateSerialised(client: import("postgres").Sql, run: () => Promise<void>): Promise<void> {
  const connection = await client.reserve();
  try {
    await connection`select pg_advisory_lock(${MIGRATION_LOCK_KEY.toString()}::bigint)`;
    try {
      await run();
    } finally {
      await connection`select pg_advisory_unlock(${MIGRATION_LOCK_KEY.toString()}::bigint)`;
    }
  } finally {
    connection.release();
  }
}

async function openPostgres(url: string, max: number): Promise<Database> {
  const { default: postgres } = await import("postgres");
  const { drizzle } = await import("drizzle-orm/postgres-js");
  const { migrate } = await import("drizzle-orm/postgres-js/migrator");
  const client = postgres(url, {
    max,
    onnotice: () => {},
    connect_timeout: 5,
    // Keep idle connections short-lived so a restarted server is noticed quickly.
    idle_timeout: 30,
    // Reconnect delay in seconds. The driver's default grows with the failures of the whole pool up to
    // 20 s, so after a database restart calls would wait that long for a connection instead of a
    // quick 503, and keep waiting after the database is back.
    backoff: (retries: number) => Math.min(0.05 * 2 ** retries, 1),
  });
  const db = drizzle({ client, schema });
  await migrateSerialised(client, () => migrate(db, { migrationsFolder }));
  const dialect = new PgDialect();
  return {
    db: db as unknown as Db,
    driver: "postgres",
    // drizzle runs every statement unprepared: parse and describe, then bind and execute, two round
    // trips and a fresh plan each time. The statements sent here each have one fixed text (rows
    // travel as array or JSON parameters, decision 005), so postgres.js prepares each once per
    // connection and later calls are one round trip. The executor's own connection is used, so
    // a statement inside a transaction stays in it.
    rows: async <T>(query: SQL, executor: Executor = db as unknown as Db) => {
      const { sql: text, params } = dialect.sqlToQuery(query);
      const connection = (executor._.session as unknown as { client: typeof client }).client;
      return (await connection.unsafe(text, params as never[], { prepare: true })) as unknown as T[];
    },
    notify: async (channel, payload = "") => {
      await client.notify(channel, payload);
    },
    listen: async (channel, onNotify) => {
      const { unlisten } = await client.listen(channel, onNotify);
      return unlisten;
    },
    ping: async () => {
      await client`select 1`;
    },
    close: () => client.end({ timeout: 5 }),
  };
}

async function openPglite(dataDir: string): Promise<Database> {
  const { PGlite } = await import("@electric-sql/pglite");
  const { drizzle } = await import("drizzle-orm/pglite");
  const { migrate } = await import("drizzle-orm/pglite/migrator");
  const onDisk = !dataDir.includes("://");
  const fresh = !onDisk || !existsSync(join(dataDir, "PG_VERSION"));
  // A new database starts from a migrated template instead of running initdb and every migration.
  const template = fresh ? { loadDataDir: await pgliteTemplate() } : {};
  if (onDisk) mkdirSync(dataDir, { recursive: true });
  // PGlite is single-process: one process at a time on a directory (data-dir-lock.ts). The role is
  // `serve` or an admin command's first two words, never its arguments (they may be tokens).
  const [group, action] = process.argv.slice(2);
  const role = !group || group === "serve" ? "serve" : [group, action].filter(Boolean).join(" ");
  const lock = onDisk ? acquireDataDirLock(dataDir, { role }) : undefined;
  const client: PGlite = await PGlite.create(dataDir, template).catch((err: unknown) => {
    lock?.release();
    throw err;
  });
  const db = drizzle({ client, schema });
  try {
    await migrate(db, { migrationsFolder });
  } catch (err) {
    await client.close().catch(() => {});
    lock?.release();
    throw err;
  }
  return {
    db: db as unknown as Db,
    driver: "pglite",
    rows: async <T>(query: SQL, executor: Executor = db as unknown as Db) =>
      rowsOf<T>(await executor.execute(query)),
    notify: async (channel, payload = "") => {
      await client.query("select pg_notify($1, $2)", [channel, payload]);
    },
    listen: async (channel, onNotify) => {
      // PGlite writes the name into LISTEN unquoted, so it is case-folded there while pg_notify is
      // not, and its unlisten folds a quoted name a second time and leaves the listener in place.
      // Plain lowercase names mean the same thing on both drivers and in both calls.
      if (!/^[a-z_][a-z0-9_]*$/.test(channel))
        throw new Error(`channel must be a lowercase identifier: ${channel}`);
      const unlisten = await client.listen(channel, onNotify);
      return () => unlisten();
    },
    ping: async () => {
      await client.query("select 1");
    },
    close: async () => {
      try {
        await client.close();
      } finally {
        lock?.release();
      }
    },
    ...(lock ? { setLockPort: (port: number) => lock.setPort(port) } : {}),
  };
}

export { sql };
