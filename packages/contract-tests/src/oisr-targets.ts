// OISR's own targets: the server on embedded PGlite always, on PostgreSQL when DATABASE_URL is
// set (and behind PgBouncer with OISR_PGBOUNCER_URL, with a read replica with OISR_REPLICA_URL),
// and the mock in both modes. The kit runs them
// with `--targets src/oisr-targets.ts`; the in-repo `vitest run` takes them from src/targets.ts.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freshDatabase, loadConfig, startServer } from "@oisr/server";
import { mockTarget } from "./mock-targets.ts";
import type { Target } from "./system.ts";

/** A fresh, empty PGlite directory: the server fills it from its migrated template (db/pglite-template.ts). */
function freshPgliteDir(): { dir: string; drop(): Promise<void> } {
  const dir = mkdtempSync(join(tmpdir(), "oisr-contract-pglite-run-"));
  return { dir, drop: async () => rmSync(dir, { recursive: true, force: true }) };
}

/** The same database through a transaction pooler: `pooler` is its URL (any database name). */
export function pooledUrl(directUrl: string, pooler: string): string {
  const url = new URL(directUrl);
  const via = new URL(pooler);
  url.host = via.host;
  return url.toString();
}

/**
 * The same database on a streaming replica (scripts/replica.sh): `replica` is its URL (any
 * database name). A database created on the primary exists there once its creation is replayed.
 */
async function replicaOf(directUrl: string, replica: string): Promise<string> {
  const url = pooledUrl(directUrl, replica);
  const { default: postgres } = await import("postgres");
  const deadline = Date.now() + 30_000;
  for (;;) {
    const probe = postgres(url, { max: 1, onnotice: () => {}, connect_timeout: 5 });
    try {
      await probe`select 1`;
      return url;
    } catch (err) {
      if (Date.now() > deadline) throw err;
      await new Promise((resolve) => setTimeout(resolve, 50));
    } finally {
      await probe.end();
    }
  }
}

function serverTarget(
  name: string,
  databaseUrl: string | undefined,
  pooler?: string,
  replica?: string,
): Target {
  return {
    name,
    ...(replica ? { readReplica: true } : {}),
    async start(env = {}) {
      const db = databaseUrl ? await freshDatabase(databaseUrl) : undefined;
      // The feeds and lists read from the replica, everything else from the primary (decision 021).
      const reads = db && replica ? { OISR_READ_DATABASE_URL: await replicaOf(db.url, replica) } : {};
      // Behind PgBouncer in transaction mode, as a managed PostgreSQL would put it; LISTEN direct.
      const pooling =
        db && pooler
          ? {
              DATABASE_URL: pooledUrl(db.url, pooler),
              OISR_DATABASE_POOLING: "transaction",
              OISR_LISTEN_DATABASE_URL: db.url,
            }
          : {};
      const pglite = databaseUrl ? undefined : freshPgliteDir();
      const config = loadConfig({
        PORT: "0",
        LOG_LEVEL: "silent",
        OISR_DATA_DIR: pglite?.dir ?? "memory://",
        OISR_VALIDATE_RESPONSES: "1",
        OISR_WEBHOOK_ALLOW_PRIVATE_NETWORKS: "1",
        OISR_RETRY_BASE_MS: "50",
        ...(db ? { DATABASE_URL: db.url } : {}),
        ...pooling,
        ...reads,
        ...env,
      });
      const server = await startServer(config);
      return {
        baseUrl: server.url as string,
        origin: server.origin as string,
        ...(db ? { databaseUrl: db.url } : {}),
        ...(reads.OISR_READ_DATABASE_URL ? { listsLag: true, replicaUrl: reads.OISR_READ_DATABASE_URL } : {}),
        async createAccount(accountName = "contract-test") {
          const created = await server.services.accounts.createAccount(accountName);
          return { accountId: created.account_id, token: created.token };
        },
        async revokeToken(token) {
          await server.services.accounts.revokeToken(token);
        },
        async close() {
          await server.close();
          await db?.drop();
          await pglite?.drop();
        },
      };
    },
  };
}

/** The server on embedded PGlite always; on PostgreSQL too when DATABASE_URL is set. */
export const targets: Target[] = [
  serverTarget("server (PGlite)", undefined),
  ...(process.env.DATABASE_URL ? [serverTarget("server (PostgreSQL)", process.env.DATABASE_URL)] : []),
  // OISR_PGBOUNCER_URL: a PgBouncer in transaction mode in front of DATABASE_URL (scripts/pgbouncer.sh).
  ...(process.env.DATABASE_URL && process.env.OISR_PGBOUNCER_URL
    ? [
        serverTarget(
          "server (PostgreSQL via PgBouncer, transaction pooling)",
          process.env.DATABASE_URL,
          process.env.OISR_PGBOUNCER_URL,
        ),
      ]
    : []),
  // OISR_REPLICA_URL: a streaming replica of DATABASE_URL's server (scripts/replica.sh).
  ...(process.env.DATABASE_URL && process.env.OISR_REPLICA_URL
    ? [
        serverTarget(
          "server (PostgreSQL + read replica)",
          process.env.DATABASE_URL,
          undefined,
          process.env.OISR_REPLICA_URL,
        ),
      ]
    : []),
  mockTarget("mock (in-process msw)"),
  mockTarget("mock (standalone)"),
];
