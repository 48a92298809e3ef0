// Several processes starting at once on an empty PostgreSQL database (a first `docker compose up`
// of API + worker, a rolling deploy) must all come up: migrations run once, the others wait.
// Each openDatabase below has its own connection pool, so the race is real at the database.
import { describe, expect, it } from "vitest";
import { openDatabase, sql } from "./client.ts";
import { freshDatabase } from "./fresh-database.ts";

const databaseUrl = process.env.DATABASE_URL;

describe.runIf(databaseUrl)("migrations on PostgreSQL", () => {
  it("let four processes start together on an empty database, round after round", async () => {
    for (let round = 0; round < 5; round++) {
      const fresh = await freshDatabase(databaseUrl as string, "oisr_migrate");
      try {
        const opened = await Promise.allSettled(
          Array.from({ length: 4 }, () => openDatabase({ databaseUrl: fresh.url, maxConnections: 2 })),
        );
        const failures = opened.flatMap((o) => (o.status === "rejected" ? [String(o.reason)] : []));
        const databases = opened.flatMap((o) => (o.status === "fulfilled" ? [o.value] : []));
        try {
          expect(failures).toEqual([]);
          const [first] = databases;
          const applied = await first!.rows<{ n: number }>(
            sql`select count(*)::int as n from drizzle.__drizzle_migrations`,
          );
          const tables = await first!.rows<{ n: number }>(
            sql`select count(*)::int as n from information_schema.tables where table_name = 'request_queues'`,
          );
          expect(tables[0]!.n).toBe(1);
          expect(applied[0]!.n).toBeGreaterThan(0);
        } finally {
          await Promise.all(databases.map((d) => d.close()));
        }
      } finally {
        await fresh.drop();
      }
    }
  }, 120_000);
});
