// Retention by partition (decision 020): a pass makes the partitions the next intervals need and
// drops the ones wholly past retention. Dropping a partition writes a few catalog rows of WAL and
// leaves no dead tuples, where the row-by-row DELETE it replaces wrote about a kilobyte of WAL per
// row and left every row dead for autovacuum (figures in the decision record).
//
// Statement owner: partitions are created only by the migration's SQL functions (called here and
// at startup) and dropped only here; `oisr_partitions` lists them, changed in the DDL's transaction.
// One process at a time: making partitions and claiming expired ones take the same transaction
// advisory lock with a try, so a process that finds it taken skips the pass instead of queueing
// behind it. A partition is retired in three steps, so the parent is never locked exclusively:
//
//   attached ──claim (detach_started_at, under the lock)──▶ claimed
//   claimed ──DETACH CONCURRENTLY──▶ detached ──DROP + delete listing (one transaction)──▶ gone
//
// A pass that dies mid-way leaves a stale claim; a later pass takes it over and finishes from the
// step the catalog shows (detachAndDrop).
import { retentionCutoff } from "@oisr/contract";
import { type SQL, sql } from "drizzle-orm";
import type { Database, Executor } from "../db/database.ts";
import { isOpen, millis } from "../queue/sql.ts";
import {
  aheadMs,
  IDEMPOTENCY_INTERVAL_MS,
  IDEMPOTENCY_KEEP_MS,
  partitionIntervalMs,
  REQUEST_DROP_GRACE_MS,
} from "./plan.ts";

export const PARTITIONED_TABLES = ["requests", "idempotency_keys", "events", "webhook_deliveries"] as const;
export type PartitionedTable = (typeof PARTITIONED_TABLES)[number];

export interface TablePass {
  /** Partitions made ahead by this pass. */
  created: number;
  /** Partitions dropped, by name. */
  dropped: string[];
  /**
   * Rows the dropped partitions held: PostgreSQL's estimate (`pg_class.reltuples`, exact as of the
   * partition's last ANALYZE, which autovacuum runs long before a partition expires), counted only
   * for a partition never analysed. A count read every row of a day's partition: 2.3 s and the
   * partition's whole heap through the cache at 10 million requests (decision 020).
   */
  rows_dropped: number;
  /** Partitions past retention kept because they still hold a pending or processing request, or an event not fanned out. */
  kept_open: string[];
  /** Why this table's drops did not happen this time (e.g. the lock timeout); retried next pass. */
  error?: string;
}

export interface RetentionPass {
  /** False when another process held the lock: it is doing the pass. */
  ran: boolean;
  tables: Record<PartitionedTable, TablePass>;
  duration_ms: number;
}

const LOCK: SQL = sql`hashtext('oisr_partitions'), hashtext('retention')`;

/**
 * How long the drop of a detached partition waits for its lock before giving up until the next
 * pass. Once detached, nothing reads the table through the parent, so this wait is rare; the parent
 * itself is never locked exclusively (detachAndDrop).
 */
const DROP_LOCK_TIMEOUT = "2s";

/**
 * A claim older than this is taken over by the next pass: its pass died between claiming and
 * dropping. Longer than any pass lives: a concurrent detach waits only for the transactions that
 * were running when it started (worker stages of seconds).
 */
const CLAIM_STALE = "15 minutes";

const at = (ms: number) => sql`${new Date(ms).toISOString()}::timestamptz`;

/**
 * Makes the partitions covering [now - behindMs, now + ahead]: `requests`, `events` and
 * `webhook_deliveries` at `intervalMs` (the same bounds for the three, so a pass drops the same
 * range of each), `idempotency_keys` by the day from two days back (a key's 24 h window, with a day
 * of margin). Returns how many each table got.
 */
export async function ensurePartitions(
  database: Database,
  options: { now: Date; intervalMs: number; behindMs?: number },
  executor?: Executor,
): Promise<Record<PartitionedTable, number>> {
  const now = options.now.getTime();
  const { intervalMs } = options;
  const timed = (table: string) =>
    sql`oisr_ensure_table_partitions(${table}, ${at(now - (options.behindMs ?? 0))},
          ${at(now + aheadMs(intervalMs))}, ${millis(intervalMs)})`;
  const [row] = await database.rows<Record<PartitionedTable, number>>(
    sql`select ${timed("requests")} as requests, ${timed("events")} as events,
               ${timed("webhook_deliveries")} as webhook_deliveries,
               oisr_ensure_table_partitions('idempotency_keys', ${at(now - 2 * IDEMPOTENCY_INTERVAL_MS)},
                 ${at(now + aheadMs(IDEMPOTENCY_INTERVAL_MS))}, ${millis(IDEMPOTENCY_INTERVAL_MS)}) as idempotency_keys`,
    executor,
  );
  return {
    requests: Number(row?.requests ?? 0),
    idempotency_keys: Number(row?.idempotency_keys ?? 0),
    events: Number(row?.events ?? 0),
    webhook_deliveries: Number(row?.webhook_deliveries ?? 0),
  };
}

/**
 * At startup (db/client.ts): the partitions around now, before anything is accepted. A database
 * made from the PGlite template, or one left stopped for a while, has none for today. Skipped on a
 * hot standby, which cannot run DDL and gets the primary's partitions by replication.
 */
export async function ensureStartupPartitions(database: Database, intervalMs: number): Promise<void> {
  const [standby] = await database.rows<{ yes: boolean }>(sql`select pg_is_in_recovery() as yes`);
  if (standby?.yes) return;
  await ensurePartitions(database, { now: new Date(), intervalMs, behindMs: 2 * intervalMs });
}

const emptyPass = (): TablePass => ({ created: 0, dropped: [], rows_dropped: 0, kept_open: [] });

async function tryLock(database: Database, tx: Executor): Promise<boolean> {
  const [row] = await database.rows<{ ok: boolean }>(
    sql`select pg_try_advisory_xact_lock(${LOCK}) as ok`,
    tx,
  );
  return row?.ok === true;
}

/**
 * The oldest instant a table must still hold: partitions wholly before it are dropped. Events and
 * deliveries cut exactly at the retention: their created_at is their id's time, on which every
 * read of them cuts (GET /events hides an event past it, a retry refuses it).
 */
function keepFrom(table: PartitionedTable, now: Date, retentionDays: number): number {
  switch (table) {
    case "requests":
      return retentionCutoff(now, retentionDays).getTime() - REQUEST_DROP_GRACE_MS;
    case "idempotency_keys":
      return now.getTime() - IDEMPOTENCY_KEEP_MS;
    default:
      return retentionCutoff(now, retentionDays).getTime();
  }
}

/**
 * Why a partition past retention is kept for now: a pending or processing request (its worker
 * still needs the row), an event not fanned out yet (its deliveries are still owed; it goes on the
 * pass after a dispatcher reaches it). Each looks through a partial index, so it costs one probe.
 */
const stillOpen: Partial<Record<PartitionedTable, SQL>> = {
  requests: isOpen,
  events: sql`dispatched_at is null`,
};

interface Doomed {
  table: PartitionedTable;
  name: string;
  rows: number;
}

/**
 * Claims the partitions past retention of `tables` (one transaction, under the retention lock):
 * each not yet claimed, or claimed longer than CLAIM_STALE ago by a pass that died, and holding no
 * open row (stillOpen), gets `detach_started_at`; its rows are estimated now, before any DDL.
 */
async function claimExpired(
  database: Database,
  tables: readonly PartitionedTable[],
  keepFromMs: (table: PartitionedTable) => number,
  passes: Record<PartitionedTable, TablePass>,
): Promise<Doomed[]> {
  return database.db.transaction(async (tx) => {
    if (!(await tryLock(database, tx))) return [];
    const doomed: Doomed[] = [];
    for (const table of tables) {
      const expired = await database.rows<{ name: string; present: boolean }>(
        sql`select name, to_regclass(name) is not null as present from oisr_partitions
             where parent = ${table} and to_at <= ${at(keepFromMs(table))}
               and (detach_started_at is null or detach_started_at < now() - ${sql.raw(`interval '${CLAIM_STALE}'`)})
             order by from_at`,
        tx,
      );
      const open = stillOpen[table];
      for (const { name, present } of expired) {
        const partition = sql.identifier(name);
        if (present && open) {
          const [found] = await database.once<{ yes: boolean }>(
            sql`select exists (select 1 from ${partition} where ${open}) as yes`,
            tx,
          );
          if (found?.yes) {
            passes[table].kept_open.push(name);
            continue;
          }
        }
        const [count] = present
          ? await database.once<{ n: string | number }>(
              sql`select case when c.reltuples >= 0 then c.reltuples::bigint
                              else (select count(*) from ${partition}) end as n
                    from pg_class c where c.oid = ${name}::regclass`,
              tx,
            )
          : [];
        doomed.push({ table, name, rows: Number(count?.n ?? 0) });
      }
    }
    if (doomed.length > 0) {
      await database.rows(
        sql`update oisr_partitions set detach_started_at = now()
             where name in (${sql.join(
               doomed.map((d) => sql`${d.name}`),
               sql`, `,
             )})`,
        tx,
      );
    }
    return doomed;
  });
}

/**
 * Detaches one claimed partition from its parent and drops it, finishing whatever step a dead pass
 * left, as the catalog shows it: attached → DETACH CONCURRENTLY (it cannot run in a transaction);
 * detach pending (the concurrent detach was interrupted) → FINALIZE; detached → only the drop. The
 * drop and the removal from `oisr_partitions` commit together.
 */
async function detachAndDrop(database: Database, parent: PartitionedTable, name: string): Promise<void> {
  const [state] = await database.rows<{ pending: boolean | null }>(
    sql`select i.inhdetachpending as pending from pg_inherits i where i.inhrelid = to_regclass(${name})`,
  );
  const table = sql.identifier(name);
  if (state?.pending === false) {
    await database.once(sql`alter table ${sql.identifier(parent)} detach partition ${table} concurrently`);
  } else if (state?.pending === true) {
    await database.once(sql`alter table ${sql.identifier(parent)} detach partition ${table} finalize`);
  }
  await database.db.transaction(async (tx) => {
    await database.rows(sql.raw(`set local lock_timeout = '${DROP_LOCK_TIMEOUT}'`), tx);
    await database.once(sql`drop table if exists ${table}`, tx);
    await database.rows(sql`delete from oisr_partitions where name = ${name}`, tx);
  });
}

/**
 * Drops the partitions past retention of `tables`: claimed together (claimExpired), then detached
 * and dropped one at a time, in `tables`' order (`webhook_deliveries` before `events`, so a delivery
 * never outlives its event's range by a pass). A failure stops the group: its error is reported and
 * the claims not finished are released, for the next pass to take again.
 */
async function dropExpired(
  database: Database,
  tables: readonly PartitionedTable[],
  keepFromMs: (table: PartitionedTable) => number,
  passes: Record<PartitionedTable, TablePass>,
): Promise<void> {
  const doomed = await claimExpired(database, tables, keepFromMs, passes);
  for (const [i, { table, name, rows }] of doomed.entries()) {
    try {
      await detachAndDrop(database, table, name);
    } catch (err) {
      const left = doomed.slice(i).map((d) => sql`${d.name}`);
      await database
        .rows(
          sql`update oisr_partitions set detach_started_at = null where name in (${sql.join(left, sql`, `)})`,
        )
        .catch(() => {});
      throw err;
    }
    passes[table].dropped.push(name);
    passes[table].rows_dropped += rows;
  }
}

/** Tables whose partitions are dropped together, in this order (dropExpired). */
const DROP_GROUPS: readonly (readonly PartitionedTable[])[] = [
  ["requests"],
  ["idempotency_keys"],
  ["webhook_deliveries", "events"],
];

/**
 * One retention pass: partitions ahead, then each table's drops. A table whose drops fail (the
 * lock timeout above) reports its error and is retried on the next pass; the others go on.
 */
export async function runRetentionPass(
  database: Database,
  options: { retentionDays: number; now?: Date },
): Promise<RetentionPass> {
  const started = performance.now();
  const now = options.now ?? new Date();
  const pass: RetentionPass = {
    ran: false,
    tables: {
      requests: emptyPass(),
      idempotency_keys: emptyPass(),
      events: emptyPass(),
      webhook_deliveries: emptyPass(),
    },
    duration_ms: 0,
  };
  const intervalMs = partitionIntervalMs(options.retentionDays);
  pass.ran = await database.db.transaction(async (tx) => {
    if (!(await tryLock(database, tx))) return false;
    const created = await ensurePartitions(database, { now, intervalMs }, tx);
    for (const table of PARTITIONED_TABLES) pass.tables[table].created = created[table];
    return true;
  });
  if (pass.ran) {
    for (const group of DROP_GROUPS) {
      await dropExpired(
        database,
        group,
        (table) => keepFrom(table, now, options.retentionDays),
        pass.tables,
      ).catch((err: unknown) => {
        const error = err instanceof Error ? err.message : String(err);
        for (const table of group) pass.tables[table].error = error;
      });
    }
  }
  pass.duration_ms = Math.round(performance.now() - started);
  return pass;
}
