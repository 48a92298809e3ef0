// Autovacuum for the embedded database (decision 027). PGlite runs PostgreSQL as one standalone
// backend: no autovacuum launcher, so nothing ever vacuums or analyses it (a table with 20,000 dead
// rows still had them, and `reltuples` -1, a minute and more later). Without this loop:
//   - dead rows and index entries pile up in the tables that are updated in place (orders,
//     returns, inventory levels, request_queues, accounts' feed positions, rate-limit counters);
//   - the planner never has statistics;
//   - nothing freezes old rows. A standalone backend does not stop at the wraparound limit as a
//     server does; it warns, and after 2^31 transactions rows never frozen would turn invisible.
// So the server does what autovacuum would: each pass (every `autovacuum_naptime`) picks the
// tables autovacuum's own thresholds and settings (read from the database) pick, and runs VACUUM
// (ANALYZE) or ANALYZE on each, one table per call. PGlite runs in this thread: a call blocks the
// event loop for its length, and calls queued meanwhile run between two tables. On PostgreSQL the
// server's autovacuum does this, and the loop is not started.
import { type SQL, sql } from "drizzle-orm";
import type { Logger } from "pino";
import { type Periodic, startPeriodic } from "../periodic.ts";
import type { Database } from "./database.ts";

export interface EmbeddedVacuumPass {
  /** `schema.table` of each table vacuumed (with ANALYZE), in the order done. */
  vacuumed: string[];
  /** Tables only analysed. */
  analyzed: string[];
  ms: number;
}

interface Due {
  name: string;
  vacuum: boolean;
}

/**
 * The tables autovacuum would process now, oldest transaction age first, then most dead rows:
 * dead rows over `threshold + scale factor × rows`; rows inserted since the last vacuum over the
 * insert threshold (insert-only tables need freezing and the visibility map too; -1 turns the rule
 * off, as for autovacuum); transaction or multixact age over the freeze limits (each a vacuum); or
 * rows changed since the last analyse over the analyse threshold (an ANALYZE alone). System
 * catalogs included, since the partitions made and dropped every day (decision 020) churn them;
 * pg_statistic is not analysed, as autovacuum does not. TOAST tables go with their table.
 */
const DUE: SQL = sql`
  with s as (
    select current_setting('autovacuum_vacuum_threshold')::float8 as vt,
           current_setting('autovacuum_vacuum_scale_factor')::float8 as vs,
           current_setting('autovacuum_vacuum_insert_threshold')::float8 as it,
           current_setting('autovacuum_vacuum_insert_scale_factor')::float8 as "is",
           current_setting('autovacuum_analyze_threshold')::float8 as at,
           current_setting('autovacuum_analyze_scale_factor')::float8 as "as",
           current_setting('autovacuum_freeze_max_age')::float8 as fx,
           current_setting('autovacuum_multixact_freeze_max_age')::float8 as mx
  ), t as (
    select format('%I.%I', n.nspname, c.relname) as name, greatest(c.reltuples, 0) as n,
           age(c.relfrozenxid) as xid_age, mxid_age(c.relminmxid) as mxid_age,
           coalesce(st.n_dead_tup, 0) as dead, coalesce(st.n_ins_since_vacuum, 0) as inserted,
           coalesce(st.n_mod_since_analyze, 0) as changed, c.oid = 'pg_catalog.pg_statistic'::regclass as statistics
      from pg_class c
      join pg_namespace n on n.oid = c.relnamespace
      left join pg_stat_all_tables st on st.relid = c.oid
     where c.relkind in ('r', 'm') and n.nspname not in ('information_schema', 'pg_toast')
       and n.nspname not like 'pg_temp%'
  )
  select t.name,
         t.xid_age > s.fx or t.mxid_age > s.mx or t.dead > s.vt + s.vs * t.n
           or (s.it >= 0 and t.inserted > s.it + s."is" * t.n) as vacuum
    from t, s
   where t.xid_age > s.fx or t.mxid_age > s.mx or t.dead > s.vt + s.vs * t.n
      or (s.it >= 0 and t.inserted > s.it + s."is" * t.n)
      or (not t.statistics and t.changed > s.at + s."as" * t.n)
   order by greatest(t.xid_age / s.fx, t.mxid_age / s.mx) desc, t.dead desc, t.name`;

/** One pass: every due table, one statement each (VACUUM cannot run inside a transaction block). */
export async function runEmbeddedVacuumPass(database: Database): Promise<EmbeddedVacuumPass> {
  const started = performance.now();
  // The counters of the last second's statements too: a backend sends its counts at most once a
  // second unless asked, at the end of the statement that asks.
  await database.once(sql`select pg_stat_force_next_flush()`);
  const due = await database.once<Due>(DUE);
  const pass: EmbeddedVacuumPass = { vacuumed: [], analyzed: [], ms: 0 };
  for (const table of due) {
    // The name comes from the catalog, quoted by format('%I.%I') above.
    await database.once(sql.raw(`${table.vacuum ? "vacuum (analyze)" : "analyze"} ${table.name}`));
    (table.vacuum ? pass.vacuumed : pass.analyzed).push(table.name);
  }
  pass.ms = Math.round(performance.now() - started);
  return pass;
}

/** Runs a pass every `autovacuum_naptime` on PGlite; on PostgreSQL nothing (its autovacuum does it). */
export async function startEmbeddedVacuum(options: {
  database: Database;
  logger: Logger;
  onPass?: (pass: EmbeddedVacuumPass) => void;
  onFailure?: () => void;
  /** Time between passes; `autovacuum_naptime` when not given. */
  everyMs?: number;
}): Promise<Periodic> {
  const { database, logger } = options;
  if (database.driver !== "pglite") return { stop: async () => {} };
  const everyMs = options.everyMs ?? (await naptimeMs(database));
  return startPeriodic(everyMs, () =>
    runEmbeddedVacuumPass(database)
      .then((pass) => {
        options.onPass?.(pass);
        if (pass.vacuumed.length + pass.analyzed.length > 0)
          logger.info({ vacuum: pass }, "embedded vacuum pass");
      })
      .catch((err: unknown) => {
        options.onFailure?.();
        logger.warn({ err }, "embedded vacuum pass failed");
      }),
  );
}

async function naptimeMs(database: Database): Promise<number> {
  const [row] = await database.once<{ ms: number }>(
    sql`select extract(epoch from current_setting('autovacuum_naptime')::interval)::float8 * 1000 as ms`,
  );
  return Number(row?.ms ?? 60_000);
}
