// The systems the one contract suite runs against. Each target starts a fresh, isolated system
// and can mint accounts; tests talk to it over HTTP only.
import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { freshDatabase, loadConfig, openServices, startServer } from "@oisr/server";
import { mockTarget } from "./mock-targets.ts";
import type { Target } from "./system.ts";

export type { System, Target } from "./system.ts";

/** A fresh PostgreSQL database per system, dropped on close. */
export { freshDatabase };

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

function serverTarget(name: string, databaseUrl: string | undefined, pooler?: string): Target {
  return {
    name,
    async start(env = {}) {
      const db = databaseUrl ? await freshDatabase(databaseUrl) : undefined;
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
        ...env,
      });
      const server = await startServer(config);
      return {
        baseUrl: server.url as string,
        origin: server.origin as string,
        ...(db ? { databaseUrl: db.url } : {}),
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
  mockTarget("mock (in-process msw)"),
  mockTarget("mock (standalone)"),
];

// The server's entry, found through the package as any dependant would (not by a relative path).
const serverMain = fileURLToPath(new URL("./main.ts", import.meta.resolve("@oisr/server")));

export interface SpawnedServer {
  child: ChildProcessWithoutNullStreams;
  /** Resolves with the API base URL (ending in /v2), or "" for a worker-only process. */
  ready: Promise<string>;
  /** Everything the process wrote so far (stdout and stderr), for failure messages. */
  output(): string;
  /** SIGTERM, then SIGKILL after `graceMs`; resolves when the process has exited. */
  stop(graceMs?: number): Promise<void>;
}

/** Starts `oisr-server` as a child process (for crash and multi-process tests). */
export function spawnServer(env: Record<string, string>): SpawnedServer {
  const child = spawn(process.execPath, [serverMain, "serve"], {
    env: { ...process.env, PORT: "0", LOG_LEVEL: "warn", ...env },
    stdio: ["pipe", "pipe", "pipe"],
  });
  let out = "";
  // Both pipes are drained for the whole life of the process: a full pipe would block its logger.
  const keep = (chunk: Buffer) => {
    out = (out + chunk.toString()).slice(-64_000);
  };
  child.stderr.on("data", keep);
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const ready = new Promise<string>((resolve, reject) => {
    child.stdout.on("data", (chunk: Buffer) => {
      keep(chunk);
      const api = /API:\s+(\S+)/.exec(out);
      if (api?.[1]) resolve(api[1]);
      else if (/ready in/.test(out) && !/API \+ workers|OISR api/.test(out)) resolve("");
    });
    child.once("exit", (code, signal) =>
      reject(new Error(`oisr-server exited (${code ?? signal}) before it was ready:\n${out}`)),
    );
  });
  ready.catch(() => {});
  return {
    child,
    ready,
    output: () => out,
    async stop(graceMs = 5000) {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), graceMs);
      await exited;
      clearTimeout(timer);
    },
  };
}

/**
 * Mints accounts straight in a deployment's PostgreSQL database, as `accounts create` does but
 * without a process per account (the CLI itself is tested once, in the multi-process tests).
 */
export async function accountMinter(databaseUrl: string) {
  const services = await openServices({ databaseUrl, dataDir: "" });
  return {
    async create(name = "contract-test"): Promise<{ accountId: string; token: string }> {
      const created = await services.accounts.createAccount(name);
      return { accountId: created.account_id, token: created.token };
    },
    close: () => services.database.close(),
  };
}

/** Runs an `oisr-server` admin command against a database and returns its exit code and parsed stdout. */
export async function cli(
  databaseUrl: string,
  args: string[],
): Promise<{ code: number | null; output: unknown }> {
  const child = spawn(process.execPath, [serverMain, ...args], {
    env: { ...process.env, DATABASE_URL: databaseUrl, LOG_LEVEL: "warn" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (c: Buffer) => {
    stdout += c.toString();
  });
  child.stderr.on("data", (c: Buffer) => {
    stderr += c.toString();
  });
  const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
  const last = stdout.trim().split("\n").at(-1) ?? "";
  try {
    return { code, output: JSON.parse(last) };
  } catch {
    throw new Error(
      `oisr-server ${args.join(" ")} exited with ${code} and printed no JSON: ${stdout}${stderr}`,
    );
  }
}
