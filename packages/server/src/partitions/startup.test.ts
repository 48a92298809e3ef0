// A new database takes its partition length from the retention it is first started with (decision
// 020): the migration makes no `requests` partitions of its own there, so a ten-minute retention
// rolls minute-long partitions from the first minute instead of day-long ones made ahead by the
// migration (a covered range is skipped, so those would have stayed for days).
// PGlite, or PostgreSQL with DATABASE_URL.
import { afterAll, expect, it } from "vitest";
import { sql } from "../db/client.ts";
import { openServices, type Services } from "../services.ts";
import { freshDatabaseEnv } from "../webhooks/test-support.ts";

let services: Services | undefined;
let drop: (() => Promise<void>) | undefined;
afterAll(async () => {
  await services?.database.close();
  await drop?.();
});

it("a new database started with ten minutes of retention holds minute-long request, event and delivery partitions around now", async () => {
  const db = await freshDatabaseEnv();
  drop = db.drop;
  services = await openServices({
    databaseUrl: db.env.DATABASE_URL,
    dataDir: db.env.OISR_DATA_DIR ?? "memory://",
    requestRetentionDays: 10 / 1440,
  });
  for (const parent of ["requests", "events", "webhook_deliveries"]) {
    const rows = await services.database.rows<{ ms: number; covers_now: boolean }>(
      sql`select extract(epoch from to_at - from_at)::float8 * 1000 as ms, now() >= from_at and now() < to_at as covers_now
            from oisr_partitions where parent = ${parent} order by from_at`,
    );
    expect(rows.length, parent).toBeGreaterThanOrEqual(5);
    expect(new Set(rows.map((r) => r.ms)), parent).toEqual(new Set([60_000]));
    expect(
      rows.filter((r) => r.covers_now),
      parent,
    ).toHaveLength(1);
  }
});
