// The embedded database vacuums and analyses itself (embedded-vacuum.ts, decision 027): PGlite has
// no autovacuum, so without the pass its dead rows and missing statistics stay forever. Always on
// PGlite (the pass is for it alone), whatever DATABASE_URL says.
import { pino } from "pino";
import { afterAll, beforeAll, expect, it } from "vitest";
import { type Database, openDatabase, sql } from "./client.ts";
import { runEmbeddedVacuumPass, startEmbeddedVacuum } from "./embedded-vacuum.ts";

let database: Database;
beforeAll(async () => {
  database = await openDatabase({ dataDir: "memory://" });
});
afterAll(async () => {
  await database.close();
});

interface TableStats {
  dead: number;
  inserted: number;
  changed: number;
  vacuums: number;
  analyses: number;
  rows: number;
}
async function stats(table: string): Promise<TableStats> {
  await database.once(sql`select pg_stat_force_next_flush()`);
  const [row] = await database.once<Record<keyof TableStats, string | number>>(
    sql`select s.n_dead_tup as dead, s.n_ins_since_vacuum as inserted, s.n_mod_since_analyze as changed,
               s.vacuum_count as vacuums, s.analyze_count as analyses, c.reltuples as rows
          from pg_stat_all_tables s join pg_class c on c.oid = s.relid
         where s.schemaname = 'public' and s.relname = ${table}`,
  );
  if (!row) throw new Error(`no table ${table}`);
  return Object.fromEntries(Object.entries(row).map(([k, v]) => [k, Number(v)])) as unknown as TableStats;
}

it("finds a table as autovacuum would, leaves it with no dead rows and with statistics, and then leaves it alone", async () => {
  // 600 accounts written, then each updated once: 600 dead rows, over autovacuum's 50 + 20 % of a
  // table never analysed (no rows known).
  await database.once(
    sql`insert into accounts (id, name) select 'acc_vac_' || g, 'vacuum ' || g from generate_series(1, 600) g`,
  );
  await database.once(sql`update accounts set name = name || ' (renamed)' where id like 'acc_vac_%'`);
  const before = await stats("accounts");
  expect(before.dead).toBeGreaterThanOrEqual(600);
  expect(before.vacuums).toBe(0);

  const pass = await runEmbeddedVacuumPass(database);
  expect(pass.vacuumed).toContain("public.accounts");
  const after = await stats("accounts");
  expect(after).toMatchObject({ dead: 0, inserted: 0, changed: 0, vacuums: 1, analyses: 1 });
  expect(after.rows).toBeGreaterThanOrEqual(600);

  // Nothing changed since: the next pass has nothing to do for it.
  const next = await runEmbeddedVacuumPass(database);
  expect([...next.vacuumed, ...next.analyzed]).not.toContain("public.accounts");
});

it("vacuums an insert-only table past the insert threshold, and analyses a changed one", async () => {
  // 1,500 new rows (over 1,000 + 20 %): vacuumed, so its pages are marked all-visible and frozen in time.
  await database.once(
    sql`insert into accounts (id, name) select 'acc_ins_' || g, 'insert ' || g from generate_series(1, 1500) g`,
  );
  const pass = await runEmbeddedVacuumPass(database);
  expect(pass.vacuumed).toContain("public.accounts");
  expect(await stats("accounts")).toMatchObject({ inserted: 0, changed: 0 });

  // 300 updates of 2,100 rows: under the vacuum threshold (50 + 20 % = 470 dead rows), over the
  // analyse threshold (50 + 10 % = 260 changed): an ANALYZE alone.
  await database.once(sql`update accounts set name = name || '.' where id in (
    select id from accounts where id like 'acc_ins_%' order by id limit 300)`);
  const analyse = await runEmbeddedVacuumPass(database);
  expect(analyse.analyzed).toContain("public.accounts");
  expect(analyse.vacuumed).not.toContain("public.accounts");
  expect(await stats("accounts")).toMatchObject({ changed: 0, dead: 300 });
});

it("runs a pass every interval, reports it, and stops", async () => {
  await database.once(sql`update accounts set name = name || '!' where id like 'acc_ins_%'`);
  const passes: string[][] = [];
  const loop = await startEmbeddedVacuum({
    database,
    logger: pino({ level: "silent" }),
    everyMs: 20,
    onPass: (pass) => passes.push(pass.vacuumed),
  });
  await expect.poll(() => passes.length, { timeout: 5000 }).toBeGreaterThanOrEqual(2);
  await loop.stop();
  expect(passes[0]).toContain("public.accounts");
  expect(passes.slice(1).flat()).not.toContain("public.accounts");
  const seen = passes.length;
  await new Promise((resolve) => setTimeout(resolve, 100));
  expect(passes.length).toBe(seen);
});

it("is not started on PostgreSQL, whose autovacuum does the same", async () => {
  const calls: string[] = [];
  const postgres: Database = {
    ...database,
    driver: "postgres",
    once: async <T>() => {
      calls.push("once");
      return [] as T[];
    },
  };
  const loop = await startEmbeddedVacuum({ database: postgres, logger: pino({ level: "silent" }) });
  await loop.stop();
  expect(calls).toEqual([]);
});
