// Shared by the tests of migrations that convert data in place (partitions-migration.test.ts,
// event-partitions-migration.test.ts; not used by the server): a fresh database migrated only up
// to a given migration and given rows through the schema of then, for the server to open, which
// applies the rest. PGlite on disk, or PostgreSQL with DATABASE_URL.
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll } from "vitest";
import { freshDatabaseEnv } from "../webhooks/test-support.ts";
import { migrationsFolder } from "./database.ts";

export interface DatabaseBefore {
  /** Settings for openServices: the database holding `rows`, migrated up to `before`. */
  open(rows: string): Promise<{ databaseUrl: string | undefined; dataDir: string }>;
  /** Runs after the file's tests, before the database is dropped (close what opened it). */
  onCleanup(cleanup: () => Promise<void>): void;
}

/** Databases at migration `before` (its journal index, inclusive) for this test file. */
export function databaseAtMigration(before: number): DatabaseBefore {
  const dir = mkdtempSync(join(tmpdir(), `oisr-before-${before}-`));
  const cleanups: (() => Promise<void>)[] = [async () => rmSync(dir, { recursive: true, force: true })];
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  });

  /** The migrations folder as it was up to `before`. */
  function migrationsBefore(): string {
    const folder = join(dir, "drizzle");
    cpSync(migrationsFolder, folder, { recursive: true });
    const journalFile = join(folder, "meta", "_journal.json");
    const journal = JSON.parse(readFileSync(journalFile, "utf8")) as { entries: { idx: number }[] };
    journal.entries = journal.entries.filter((e) => e.idx <= before);
    writeFileSync(journalFile, JSON.stringify(journal));
    return folder;
  }

  return {
    onCleanup: (cleanup) => cleanups.push(cleanup),
    async open(rows) {
      const folder = migrationsBefore();
      const fresh = await freshDatabaseEnv();
      cleanups.push(fresh.drop);
      if (fresh.env.DATABASE_URL) {
        const { default: postgres } = await import("postgres");
        const { drizzle } = await import("drizzle-orm/postgres-js");
        const { migrate } = await import("drizzle-orm/postgres-js/migrator");
        const client = postgres(fresh.env.DATABASE_URL, { max: 1, onnotice: () => {} });
        await migrate(drizzle({ client }), { migrationsFolder: folder });
        await client.unsafe(rows);
        await client.end();
        return { databaseUrl: fresh.env.DATABASE_URL, dataDir: "memory://" };
      }
      const { PGlite } = await import("@electric-sql/pglite");
      const { drizzle } = await import("drizzle-orm/pglite");
      const { migrate } = await import("drizzle-orm/pglite/migrator");
      const dataDir = join(dir, "pglite");
      const client = await PGlite.create(dataDir);
      await migrate(drizzle({ client }), { migrationsFolder: folder });
      await client.exec(rows);
      await client.close();
      return { databaseUrl: undefined, dataDir };
    },
  };
}
