// The systems the one contract suite runs against (src/oisr-targets.ts, or the kit's), and the
// helpers of the tests that start server processes themselves (repository only: the kit ships
// src/kit/targets.ts in this module's place). Tests talk to a system over HTTP only.
import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { freshDatabase, openServices } from "@oisr/server";
import { readConfig } from "./kit/config.ts";
import { configuredTargets } from "./kit/select-targets.ts";
import { targets as oisrTargets } from "./oisr-targets.ts";
import type { Target } from "./system.ts";

export { pooledUrl } from "./oisr-targets.ts";
export type { System, Target } from "./system.ts";
/** A fresh PostgreSQL database per system, dropped on close. */
export { freshDatabase };

const kit = readConfig();
/** OISR's own targets, or under the kit's runner, the ones its options describe. */
export const targets: Target[] = kit ? await configuredTargets(kit) : oisrTargets;

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
