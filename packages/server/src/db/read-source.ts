// Where the reads that tolerate lag run (docs/decisions/021): the feeds and lists (GET /orders,
// /returns, /events, /inventory and the GET /requests list) go to a streaming replica when
// OISR_READ_DATABASE_URL is set, everything else to the primary.
//
// A replica that cannot be reached sends those reads back to the primary, as GitLab's database load
// balancer and Rails' replica handling do, rather than failing them: the primary can answer every
// read, and a replica outage would otherwise be an outage of every list of every process at once
// (/readyz keeps answering 200 and reports the replica; routes/health.ts). While it is down a
// background ping, at most one per RECHECK_MS, looks for it; no caller waits on a dead replica
// but the one that found it down.
//
// A lagging replica is not left for the primary: its answers are the primary's of a moment ago
// (a prefix of the primary's commit history, so a feed read there never skips an item; decision
// 021 has the argument), and the lag is a gauge to alert on (metrics.ts), not a reason to move
// every read onto the primary when it is busiest.
import { sql } from "drizzle-orm";
import type { Database, Db } from "./database.ts";
import { isDatabaseUnavailable } from "./errors.ts";
import { openPostgres } from "./postgres.ts";

/** Between two pings of a replica found down. */
const RECHECK_MS = 1000;

/**
 * SQLSTATEs with which a hot standby cancels a read that conflicts with replay (a row version
 * its snapshot needs was vacuumed on the primary, a lock replay needs): the same read on the
 * primary has no such conflict. 40001 is what PostgreSQL sends for these; 40P01 for a deadlock
 * with replay's buffer pins.
 */
const RECOVERY_CONFLICTS = new Set(["40001", "40P01"]);

export interface ReplicaStatus {
  /** The replica answered just now. */
  reachable: boolean;
  /** It is a standby (`pg_is_in_recovery()`); false means the URL points at a primary. */
  standby?: boolean;
  /**
   * Seconds since the last transaction it replayed, 0 when it has replayed everything it
   * received: how old its answers may be.
   */
  lagSeconds?: number;
  /** WAL bytes the primary wrote that it has not replayed yet. */
  lagBytes?: number;
}

export interface ReadSource {
  /** Runs a read that tolerates lag: on the replica, or on the primary when the replica cannot answer. */
  run<T>(read: (db: Db) => PromiseLike<T>): Promise<T>;
  /** The replica as /readyz and the metrics report it; absent without one. */
  replica?: { status(): Promise<ReplicaStatus> };
  close(): Promise<void>;
}

/** Without a replica: every read on the primary. */
export function primaryReads(primary: Database): ReadSource {
  return {
    run: async (read) => read(primary.db),
    close: async () => {},
  };
}

function sqlState(err: unknown): string | undefined {
  const e = err as { code?: unknown; cause?: { code?: unknown } };
  const code = e?.code ?? e?.cause?.code;
  return typeof code === "string" ? code : undefined;
}

export interface ReadSourceOptions {
  /** As DATABASE_URL's: `transaction` when the replica URL goes through a transaction pooler. */
  pooling?: "none" | "transaction";
  maxConnections?: number;
}

/**
 * Opens the replica at `url` beside `primary`. A replica that cannot be reached now does not stop
 * the start (reads run on the primary until it answers); one that answers with anything else (a
 * wrong database or user) does, as a wrong DATABASE_URL would.
 */
export async function openReadSource(
  primary: Database,
  url: string,
  options: ReadSourceOptions = {},
): Promise<ReadSource> {
  // No migrations (a standby refuses writes; it has the primary's schema by replication) and no
  // LISTEN: only reads run here.
  const replica = await openPostgres(url, { ...options, readOnly: true });
  let up = false;
  let checking: Promise<boolean> | undefined;
  let lastCheck = 0;

  /** Pings the replica (once at a time); true when it answered. */
  const check = (): Promise<boolean> => {
    lastCheck = Date.now();
    checking ??= replica
      .ping()
      .then(
        () => true,
        (err: unknown) => {
          if (isDatabaseUnavailable(err)) return false;
          throw err;
        },
      )
      .then((ok) => {
        up = ok;
        return ok;
      })
      .finally(() => {
        checking = undefined;
      });
    return checking;
  };

  try {
    await check();
  } catch (err) {
    await replica.close().catch(() => {});
    throw err;
  }

  return {
    async run(read) {
      if (!up) {
        if (Date.now() - lastCheck >= RECHECK_MS) void check().catch(() => {});
        return read(primary.db);
      }
      try {
        return await read(replica.db);
      } catch (err) {
        if (isDatabaseUnavailable(err)) {
          up = false;
          lastCheck = Date.now();
          return read(primary.db);
        }
        if (RECOVERY_CONFLICTS.has(sqlState(err) ?? "")) return read(primary.db);
        throw err;
      }
    },
    replica: {
      async status() {
        let row: { standby: boolean; lag_seconds: number | string; replay_lsn: string | null } | undefined;
        try {
          [row] = await replica.rows<{
            standby: boolean;
            lag_seconds: number | string;
            replay_lsn: string | null;
          }>(sql`select pg_is_in_recovery() as standby,
                   case when not pg_is_in_recovery() or pg_last_wal_receive_lsn() = pg_last_wal_replay_lsn() then 0
                        else coalesce(extract(epoch from now() - pg_last_xact_replay_timestamp()), 0)
                   end::float8 as lag_seconds,
                   pg_last_wal_replay_lsn()::text as replay_lsn`);
        } catch (err) {
          if (!isDatabaseUnavailable(err)) throw err;
          up = false;
          return { reachable: false };
        }
        if (!row) return { reachable: false };
        if (!up) void check().catch(() => {});
        const status: ReplicaStatus = {
          reachable: true,
          standby: row.standby,
          lagSeconds: Math.max(0, Number(row.lag_seconds)),
        };
        if (row.standby && row.replay_lsn) {
          const [diff] = await primary.rows<{ bytes: string | number }>(
            sql`select greatest(pg_wal_lsn_diff(pg_current_wal_lsn(), ${row.replay_lsn}::pg_lsn), 0)::float8 as bytes`,
          );
          status.lagBytes = Number(diff?.bytes ?? 0);
        } else {
          status.lagBytes = 0;
        }
        return status;
      },
    },
    close: () => replica.close(),
  };
}
