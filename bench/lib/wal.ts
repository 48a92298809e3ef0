// WAL written over a stretch of a benchmark, read from the WAL position before and after it.
import type postgres from "postgres";

/**
 * Starts counting the WAL the whole cluster writes: the returned function answers the bytes
 * written since. Other databases' work on the same PostgreSQL counts in it, so a benchmark keeps
 * its own other writes out of the stretch (bench/lib/growth-retention.ts counts one database's
 * records only, with pg_walinspect, where that cannot be arranged).
 */
export async function clusterWalMeter(sql: postgres.Sql): Promise<() => Promise<number>> {
  const [start] = await sql<{ lsn: string }[]>`select pg_current_wal_lsn()::text as lsn`;
  return async () => {
    const [row] = await sql<{ bytes: string }[]>`
      select pg_wal_lsn_diff(pg_current_wal_lsn(), ${start?.lsn ?? "0/0"}::pg_lsn)::text as bytes`;
    return Number(row?.bytes ?? Number.NaN);
  };
}
