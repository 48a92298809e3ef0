// The systems the one contract suite runs against. Each target starts a fresh, isolated system
// and can mint accounts; tests talk to it over HTTP only.
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { loadConfig, startServer } from "@oisr/server";
import postgres from "postgres";

export interface System {
  /** Base URL ending in /v2. */
  baseUrl: string;
  /** Origin, for the probes outside /v2. */
  origin: string;
  createAccount(name?: string): Promise<{ accountId: string; token: string }>;
  revokeToken(token: string): Promise<void>;
  close(): Promise<void>;
}

export interface Target {
  name: string;
  /** Environment overrides (OISR_RATE_LIMITS, OISR_MAX_ATTEMPTS…) apply to this system only. */
  start(env?: Record<string, string>): Promise<System>;
}

/** A fresh PostgreSQL database per system, dropped on close. */
export async function freshDatabase(adminUrl: string): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `oisr_test_${randomBytes(6).toString("hex")}`;
  const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const a = postgres(adminUrl, { max: 1, onnotice: () => {} });
      await a.unsafe(`drop database if exists ${name} with (force)`);
      await a.end();
    },
  };
}

function serverTarget(name: string, databaseUrl: string | undefined): Target {
  return {
    name,
    async start(env = {}) {
      const db = databaseUrl ? await freshDatabase(databaseUrl) : undefined;
      const config = loadConfig({
        PORT: "0",
        LOG_LEVEL: "silent",
        OISR_DATA_DIR: "memory://",
        OISR_VALIDATE_RESPONSES: "1",
        OISR_WEBHOOK_ALLOW_PRIVATE_NETWORKS: "1",
        OISR_RETRY_BASE_MS: "50",
        ...(db ? { DATABASE_URL: db.url } : {}),
        ...env,
      });
      const server = await startServer(config);
      return {
        baseUrl: server.url as string,
        origin: server.origin as string,
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
        },
      };
    },
  };
}

/** The server on embedded PGlite always; on PostgreSQL too when DATABASE_URL is set. */
export const targets: Target[] = [
  serverTarget("server (PGlite)", undefined),
  ...(process.env.DATABASE_URL ? [serverTarget("server (PostgreSQL)", process.env.DATABASE_URL)] : []),
];

/** Starts `oisr-server` as a child process (for crash and multi-process tests). */
export function spawnServer(env: Record<string, string>) {
  const bin = new URL("../../server/src/main.ts", import.meta.url).pathname;
  const child = spawn(process.execPath, [bin, "serve"], {
    env: { ...process.env, LOG_LEVEL: "warn", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const ready = new Promise<string>((resolve, reject) => {
    let out = "";
    child.stdout.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      const match = /API:\s+(\S+)/.exec(out) ?? (/ready in/.test(out) ? [out, ""] : null);
      if (match) resolve(match[1] ?? "");
    });
    child.once("exit", (code) => reject(new Error(`oisr-server exited with ${code} before ready: ${out}`)));
  });
  return { child, ready };
}
