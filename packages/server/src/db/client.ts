// One database handle over either driver: postgres.js when DATABASE_URL is set, embedded PGlite
// otherwise. Everything above this file sees the same drizzle `Db` and the same notify/listen.
import { existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import type { PGlite } from "@electric-sql/pglite";
import { DAY_MS } from "@oisr/contract";
import { type SQL, sql } from "drizzle-orm";
import { ensureStartupPartitions } from "../partitions/retention.ts";
import { acquireDataDirLock } from "./data-dir-lock.ts";
import { type Database, type DatabaseOptions, type Db, type Executor, migrationsFolder } from "./database.ts";
import { pgliteTemplate } from "./pglite-template.ts";
import { openPostgres } from "./postgres.ts";
import { preparedRows } from "./prepared.ts";
import * as schema from "./schema.ts";

export type { Database, DatabaseOptions, Db, Executor, Tx } from "./database.ts";
export { migrationsFolder } from "./database.ts";

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  const database = options.databaseUrl
    ? await openPostgres(options.databaseUrl, options)
    : await openPglite(options.dataDir ?? "./.oisr-data");
  // Partitions for now before anything is stored (decision 020): a template or a database left
  // stopped has none for today, and an insert that finds no partition fails.
  try {
    await ensureStartupPartitions(database, options.partitionIntervalMs ?? DAY_MS);
  } catch (err) {
    await database.close().catch(() => {});
    throw err;
  }
  return database;
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
    rows: <T>(query: SQL, executor: Executor = db as unknown as Db) => preparedRows<T>(executor, query),
    once: <T>(query: SQL, executor: Executor = db as unknown as Db) =>
      preparedRows<T>(executor, query, false),
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
