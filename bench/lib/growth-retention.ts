// The retention step of the growth benchmark: one pass of the server's own retention
// (`oisr-server retention run`), measured from outside: wall time, WAL written
// (this database's records between the WAL positions before and after, read with pg_walinspect as
// bench/retention-wal.ts does) and dead tuples left in the tables retention touches
// (pg_stat_user_tables, partitions included).
// Other databases on a shared cluster write WAL too; counting only the records whose blocks are in
// this database leaves them out (commit records, which name no block, are left out with them). The
// same interval is still measured idle just before, and both are printed.
import { openServices } from "@oisr/server";
import postgres from "postgres";
import { runJson, SERVER_MAIN } from "./processes.ts";

/** Tables that grow with traffic and expire, and their partitions (`request_queues` is not one). */
const EXPIRING = `relname ~ '^(requests|events|webhook_deliveries|idempotency_keys)($|_)'`;

export interface RetentionRun {
  /** What ran: the server's command, or the row DELETE fallback. */
  how: string;
  ms: number;
  walBytes: number;
  /** Of walBytes, what the command wrote (null without it). */
  commandWalBytes: number | null;
  /**
   * Of walBytes, full-page images: the first change of each page after a checkpoint is logged
   * whole, so this part depends on where the last checkpoint fell, not on what the pass did.
   */
  walFpiBytes: number;
  /** WAL of this database's blocks in an idle interval as long, just before (its own background work). */
  backgroundWalBytes: number;
  deadTuples: number;
  /** The command's JSON output (partitions created/dropped, rows, duration_ms), when it ran. */
  output: Record<string, unknown> | null;
  /** Rows of the expiring tables before and after (null when timed only: see runRetention). */
  rowsBefore: number | null;
  rowsAfter: number | null;
}

async function walLsn(sql: postgres.Sql): Promise<string> {
  await sql`create extension if not exists pg_walinspect`;
  const [row] = await sql<{ lsn: string }[]>`select pg_current_wal_insert_lsn()::text as lsn`;
  return row?.lsn ?? "0/0";
}

/** Bytes of the WAL records since `lsn` that touch this database's blocks. */
async function walSince(sql: postgres.Sql, lsn: string): Promise<number> {
  return (await walDetail(sql, lsn)).bytes;
}

/** walSince, with the full-page images among those bytes. */
async function walDetail(sql: postgres.Sql, lsn: string): Promise<{ bytes: number; fpi: number }> {
  // Up to the flushed position: every record of a committed step is there, and walinspect reads
  // no further. Nothing flushed since `lsn` (an idle interval) is nothing written.
  const [flushed] = await sql<
    { after: boolean }[]
  >`select pg_current_wal_flush_lsn() > ${lsn}::pg_lsn as after`;
  if (!flushed?.after) return { bytes: 0, fpi: 0 };
  const [row] = await sql<{ b: string; f: string }[]>`
    select coalesce(sum(record_length), 0)::text as b, coalesce(sum(fpi_length), 0)::text as f
      from pg_get_wal_records_info(${lsn}::pg_lsn, pg_current_wal_flush_lsn())
     where block_ref like '%/' || (select oid from pg_database where datname = current_database()) || '/%'`;
  return { bytes: Number(row?.b ?? 0), fpi: Number(row?.f ?? 0) };
}

async function deadTuples(sql: postgres.Sql): Promise<number> {
  const [row] = await sql<{ n: string }[]>`
    select coalesce(sum(n_dead_tup), 0)::text as n from pg_stat_user_tables where ${sql.unsafe(EXPIRING)}`;
  return Number(row?.n ?? 0);
}

async function expiringRows(sql: postgres.Sql): Promise<number> {
  const [row] = await sql<{ n: string }[]>`
    select ((select count(*) from requests) + (select count(*) from events)
          + (select count(*) from webhook_deliveries) + (select count(*) from idempotency_keys))::text as n`;
  return Number(row?.n ?? 0);
}

/**
 * Whether the migrated schema is the time-partitioned one, whose build has `oisr-server retention
 * run` (both come with the same migration); asked of the schema, since running the command to
 * find out would drop the history before it is measured.
 */
export async function isPartitioned(sql: postgres.Sql): Promise<boolean> {
  const [row] = await sql<{ ok: boolean }[]>`select to_regproc('oisr_ensure_partitions') is not null as ok`;
  return row?.ok === true;
}

/** Whether `table` is partitioned in this schema. */
async function partitioned(sql: postgres.Sql, table: string): Promise<boolean> {
  const [row] = await sql<{ ok: boolean }[]>`
    select exists (select 1 from pg_partitioned_table where partrelid = to_regclass(${table})) as ok`;
  return row?.ok === true;
}

/**
 * Row-by-row retention as the server does it for the tables that are not partitioned: the DELETE
 * of queue/maintenance.ts purge() for requests and idempotency keys (before time partitions), and
 * for events and their attempts the same cut by created_at (outbox/prune.ts and
 * webhooks/sql/retention.ts delete them in batches of 5,000 with more conditions; the rows deleted
 * and their WAL are the same for this history, where every event was delivered).
 */
async function deleteRows(sql: postgres.Sql, retention: string, tables: string[]): Promise<void> {
  const cutoff = `now() - interval '${retention.replace(/d$/, " days").replace(/h$/, " hours").replace(/m$/, " minutes")}'`;
  if (tables.includes("requests"))
    await sql.unsafe(
      `delete from requests where status not in ('pending', 'processing') and accepted_at < ${cutoff}`,
    );
  if (tables.includes("idempotency_keys"))
    await sql.unsafe(`delete from idempotency_keys where created_at < now() - interval '24 hours'`);
  if (tables.includes("webhook_deliveries"))
    await sql.unsafe(`delete from webhook_deliveries where created_at < ${cutoff}`);
  if (tables.includes("events"))
    await sql.unsafe(`delete from events where created_at < ${cutoff} and dispatched_at is not null`);
}

/**
 * Runs passes inside this process, as the server's own timer does (partitions/loop.ts), on
 * services opened beforehand: a pass measured under load then carries no process start-up (a Node
 * process loading the server takes ~0.5 s of CPU, a quarter of a 2-core machine's second).
 */
export type InProcessPass = (retentionDays: number) => Promise<Record<string, unknown>>;

export async function openInProcessPasses(
  databaseUrl: string,
  retentionDays: number,
): Promise<{ run: InProcessPass; close: () => Promise<void> }> {
  const services = await openServices({
    databaseUrl,
    dataDir: "memory://",
    requestRetentionDays: retentionDays,
  });
  return {
    async run(days) {
      if (days !== retentionDays)
        throw new Error(`passes opened for ${retentionDays} days, asked for ${days}`);
      return (await services.retention.run()) as unknown as Record<string, unknown>;
    },
    close: () => services.database.close(),
  };
}

/**
 * One retention pass with retention `retention` (e.g. "30d"), measured: `oisr-server retention
 * run`, or `inProcess` when given (services opened before, see openInProcessPasses).
 * `timeOnly` (a pass under ingest load, where only its duration and dead tuples are reported): no
 * row counts and no WAL reading around it. At 10 million requests the counts scan ~30 million rows
 * and the WAL reading decodes the load's own ~40 MB a second; run during the load, they were what
 * raised its p99 (session 15: 3.2× during a pass with nothing to drop, as much as during a real one).
 */
export async function runRetention(
  sql: postgres.Sql,
  databaseUrl: string,
  retention: string,
  command: boolean,
  options: { inProcess?: InProcessPass; timeOnly?: boolean } = {},
): Promise<RetentionRun> {
  const { inProcess, timeOnly = false } = options;
  const rowsBefore = timeOnly ? null : await expiringRows(sql);
  const deadBefore = await deadTuples(sql);
  let backgroundWalBytes = 0;
  // BENCH_GROWTH_CHECKPOINT=1: a CHECKPOINT first, so every page the pass changes is logged whole
  // once (the worst case of fullPageImageBytes) instead of wherever the last checkpoint fell.
  if (!timeOnly && process.env.BENCH_GROWTH_CHECKPOINT === "1") await sql`checkpoint`;
  if (!timeOnly) {
    const idleLsn = await walLsn(sql);
    // One idle second, scaled to the pass's duration below.
    await new Promise((r) => setTimeout(r, 1000));
    backgroundWalBytes = await walSince(sql, idleLsn);
  }
  const lsn = timeOnly ? "0/0" : await walLsn(sql);
  const started = performance.now();
  let output: Record<string, unknown> | null = null;
  // The command drops the partitioned tables' partitions; the tables this build does not
  // partition yet are still pruned row by row (by the webhook dispatcher), measured here too.
  const rowTables: string[] = [];
  for (const t of ["requests", "idempotency_keys", "events", "webhook_deliveries"])
    if (!command || !(await partitioned(sql, t))) rowTables.push(t);
  if (command && inProcess) output = await inProcess(Number.parseInt(retention, 10));
  else if (command)
    output = await runJson(SERVER_MAIN, ["retention", "run"], {
      DATABASE_URL: databaseUrl,
      OISR_REQUEST_RETENTION: retention,
      LOG_LEVEL: "warn",
    });
  const commandWal = timeOnly ? 0 : await walSince(sql, lsn);
  if (rowTables.length > 0) {
    // Its own connection, closed after: a backend reports its statistics when it exits.
    const own = postgres(databaseUrl, { max: 1, onnotice: () => {} });
    try {
      await deleteRows(own, retention, rowTables);
    } finally {
      await own.end();
    }
  }
  const ms = performance.now() - started;
  const { bytes: walBytes, fpi: walFpiBytes } = timeOnly ? { bytes: 0, fpi: 0 } : await walDetail(sql, lsn);
  // Statistics reach pg_stat_user_tables when a backend flushes them (at most once a second).
  await new Promise((r) => setTimeout(r, 1500));
  const deadAfter = await deadTuples(sql);
  return {
    how: [
      command ? (inProcess ? "the retention pass in process" : "oisr-server retention run") : "",
      rowTables.length > 0 ? `row DELETE on ${rowTables.join(", ")}` : "",
    ]
      .filter(Boolean)
      .join(" + "),
    commandWalBytes: command ? commandWal : null,
    ms,
    walBytes,
    walFpiBytes,
    backgroundWalBytes: (backgroundWalBytes * Math.max(ms, 1000)) / 1000,
    deadTuples: Math.max(0, deadAfter - deadBefore),
    output,
    rowsBefore,
    rowsAfter: timeOnly ? null : await expiringRows(sql),
  };
}
