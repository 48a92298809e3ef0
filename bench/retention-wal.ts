// One retention pass that drops ~100k request rows, with one event and one webhook attempt each
// (a partition of each table past retention), against the row-by-row DELETEs it replaced, on the
// same rows: WAL bytes written, tuples left dead, duration.
// PostgreSQL only (DATABASE_URL = an admin URL; a fresh database is made and dropped).
//
//   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres node bench/retention-wal.ts [rows]
//
// WAL is counted with pg_walinspect (PostgreSQL 15+ contrib): the records between the step's start
// and end that touch a block of this database, so other sessions on a shared cluster do not count.
// (Commit records, which carry no block, are left out on both sides.) Least of three runs.
import { freshDatabase, openServices } from "@oisr/server";
import postgres from "postgres";

const adminUrl = process.env.DATABASE_URL;
if (!adminUrl) throw new Error("DATABASE_URL (an admin URL of a PostgreSQL cluster) is required");
const ROWS = Number(process.argv[2] ?? 100_000);
const DAY_MS = 86_400_000;

/** Rows as an ingest of one-order requests stores them, all accepted on one day 40 days ago. */
const fill = (table: string) => `
  insert into ${table} (account_id, id, kind, status, trace_id, body, item_count, accepted_at, completed_at)
  select 'acc_' || (g % 50), r.id, 'orders', 'succeeded', md5(g::text),
         '{"orders": [{"external_id": "ORD-1", "lines": [{"line_id": "1", "sku": "SKU-1", "quantity": 1, "unit_price": "9.99"}]}]}'::jsonb,
         1, oisr_uuid7_time(r.id), oisr_uuid7_time(r.id)
    from generate_series(1, ${ROWS}) g,
         lateral (select (lpad(to_hex(${Date.now() - 40 * DAY_MS}::bigint + g * 500), 12, '0') || '7'
                          || substr(replace(gen_random_uuid()::text, '-', ''), 14))::uuid as id) r`;

/**
 * An event and an attempt per request, as the server writes them (decision 020): ids
 * `<prefix>_<ULID>` whose time is the row's created_at, the request's time (the attempt a second
 * later), on the accounts of the requests; the random part from md5 (hex digits are ULID digits).
 */
const ulidAt = (ms: string, salt: string) => `(
  (select string_agg(substr('0123456789ABCDEFGHJKMNPQRSTVWXYZ', ((${ms}) / (32::bigint ^ (9 - i))::bigint % 32)::int + 1, 1), '' order by i)
     from generate_series(0, 9) i) || upper(substr(md5(${salt}), 1, 16)))`;
const fillEvents = (events: string, deliveries: string) => `
  insert into ${events} (account_id, id, feed_seq, type, payload, created_at, dispatched_at)
  select r.account_id, e.id, r.seq, 'return.created',
         jsonb_build_object('id', e.id, 'type', 'return.created', 'created_at', oisr_ulid_time(e.id),
                            'data', jsonb_build_object('object', jsonb_build_object('id', 'ret_1', 'status', 'requested'))),
         oisr_ulid_time(e.id), oisr_ulid_time(e.id)
    from requests r,
         lateral (select 'evt_' || ${ulidAt("floor(extract(epoch from oisr_uuid7_time(r.id)) * 1000)::bigint", "r.id::text")} as id) e;
  insert into ${deliveries} (account_id, id, subscription_id, event_id, event_type, attempt, status, attempted_at,
                             response_status, duration_ms, created_at)
  select e.account_id, d.id, 'whs_1', e.id, e.type, 1, 'succeeded', oisr_ulid_time(d.id), 204, 12, oisr_ulid_time(d.id)
    from ${events} e,
         lateral (select 'whd_' || ${ulidAt("floor(extract(epoch from e.created_at) * 1000)::bigint + 1000", "e.id")} as id) d;`;

/** `tables`: a regular expression of the tables whose dead tuples count. */
async function measure(sql: postgres.Sql, tables: string, step: () => Promise<unknown>) {
  const [before] = await sql`select pg_current_wal_insert_lsn() as lsn`;
  const started = performance.now();
  await step();
  const ms = performance.now() - started;
  // Flushed: every record of the step is (its commits flushed them), and walinspect reads no further.
  const [after] = await sql`select pg_current_wal_flush_lsn() as lsn`;
  const [wal] = await sql`select coalesce(sum(record_length), 0)::bigint as bytes
                           from pg_get_wal_records_info(${before?.lsn}, ${after?.lsn})
                          where block_ref like '%/' || (select oid from pg_database where datname = current_database()) || '/%'`;
  await sql`select pg_stat_force_next_flush()`;
  await new Promise((r) => setTimeout(r, 200));
  const [dead] = await sql`select coalesce(sum(n_dead_tup), 0)::bigint as n from pg_stat_user_tables
                            where relname ~ ${tables}`;
  return { walBytes: Number(wal?.bytes), deadTuples: Number(dead?.n), ms: Math.round(ms) };
}

async function once() {
  const db = await freshDatabase(adminUrl as string, "oisr_retention_wal");
  const services = await openServices({ databaseUrl: db.url, dataDir: "memory://" });
  const sql = postgres(db.url, { max: 1, onnotice: () => {} });
  try {
    await sql`create extension if not exists pg_walinspect`;
    // Partitioned: the partitions of the day 40 days ago that the rows fall in (they span
    // ROWS × 0.5 s), dropped by one pass (30-day retention), as a pass drops one day's partition of
    // each table in service. Not every day in between: empty partitions would add their catalog WAL.
    const from = new Date(Date.now() - 40 * DAY_MS).toISOString();
    const to = new Date(Date.now() - 40 * DAY_MS + ROWS * 500 + 1000).toISOString();
    for (const table of ["requests", "events", "webhook_deliveries"])
      await sql`select oisr_ensure_table_partitions(${table}, ${from}::timestamptz, ${to}::timestamptz, interval '1 day')`;
    await sql.unsafe(fill("requests"));
    await sql.unsafe(fillEvents("events", "webhook_deliveries"));
    // The tables of before (one heap each, the same indexes), the same rows, and the old purges' DELETEs.
    for (const table of ["requests", "events", "webhook_deliveries"]) {
      await sql.unsafe(
        `create table ${table}_flat (like ${table} including all) with (autovacuum_enabled = off)`,
      );
      await sql.unsafe(`insert into ${table}_flat select * from ${table}`);
      await sql.unsafe(`vacuum analyze ${table}_flat`);
      await sql.unsafe(`vacuum analyze ${table}`);
    }
    const cutoff = new Date(Date.now() - 30 * DAY_MS).toISOString();
    let dropped: number[] = [];
    const partitions = "^(requests|events|webhook_deliveries)_p";
    const pass = await measure(sql, partitions, async () => {
      const { tables } = await services.retention.run();
      dropped = [tables.requests, tables.events, tables.webhook_deliveries].map((t) => t.rows_dropped);
    });
    if (dropped.some((n) => n !== ROWS))
      throw new Error(`the pass dropped ${dropped} rows, not ${ROWS} of each`);
    // The same pass again, with nothing left to drop: the floor (autovacuum of this database's
    // catalogs after the DDL, full-page images after a checkpoint) under the figure above.
    const idle = await measure(sql, partitions, () => services.retention.run());
    // Last, so that autovacuum, woken by the DELETE's dead tuples, cannot add to the pass's WAL.
    // The statements of before: the request purge, the attempts' and the events' prunes.
    const del = await measure(sql, "_flat$", async () => {
      await sql`delete from requests_flat where not status in ('pending', 'processing') and accepted_at < ${cutoff}`;
      await sql`delete from webhook_deliveries_flat where created_at < ${cutoff} and status <> 'pending'`;
      await sql`delete from events_flat where created_at < ${cutoff} and dispatched_at is not null`;
    });

    return { del, pass, idle };
  } finally {
    await sql.end();
    await services.database.close();
    await db.drop();
  }
}

const runs: Awaited<ReturnType<typeof once>>[] = [];
for (let i = 0; i < 3; i++) runs.push(await once());
const least = (pick: (r: (typeof runs)[number]) => number) => Math.min(...runs.map(pick));
const rows = [
  [
    "row-by-row DELETE (before)",
    least((r) => r.del.walBytes),
    least((r) => r.del.deadTuples),
    least((r) => r.del.ms),
  ],
  [
    "partition drop (retention pass)",
    least((r) => r.pass.walBytes),
    least((r) => r.pass.deadTuples),
    least((r) => r.pass.ms),
  ],
  [
    "pass with nothing to drop",
    least((r) => r.idle.walBytes),
    least((r) => r.idle.deadTuples),
    least((r) => r.idle.ms),
  ],
];
process.stdout.write(
  `retention of ${ROWS} request rows with as many events and webhook attempts, least of 3 runs\n`,
);
process.stdout.write(`${["step", "WAL bytes", "dead tuples", "ms"].join("\t")}\n`);
for (const r of rows) process.stdout.write(`${r.join("\t")}\n`);
