// Helpers for the reliability tests that run `oisr-server` processes over one PostgreSQL database
// and switch that PostgreSQL off and on: System views of spawned processes, feed draining, fetch
// with a deadline, and control of the local PostgreSQL cluster.
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { afterAll, beforeAll, expect } from "vitest";
import type { Json } from "./client.ts";
import type { Client } from "./harness.ts";
import { sleep, waitFor } from "./poll.ts";
import { accountMinter, cli, freshDatabase, type SpawnedServer, type System } from "./targets.ts";

const run = promisify(execFile);

/** The admin URL of the PostgreSQL the PostgreSQL-only tests use. */
export const adminUrl = process.env.DATABASE_URL;

export type Minter = Awaited<ReturnType<typeof accountMinter>>;

/** A System view of a spawned API process, enough for the HTTP client. */
export function systemAt(baseUrl: string, databaseUrl: string, minter: Minter): System {
  return {
    baseUrl,
    origin: new URL(baseUrl).origin,
    databaseUrl,
    createAccount: (name) => minter.create(name),
    revokeToken: async (token) => {
      await cli(databaseUrl, ["tokens", "revoke", token]);
    },
    close: async () => {},
  };
}

/** Every page of a change feed (`/orders`, `/returns`) from `cursor`, following `next_cursor`. */
export async function drainFeed(
  c: Client,
  cursor: string | undefined,
  path = "/orders",
): Promise<{ items: Json[]; cursor: string }> {
  const items: Json[] = [];
  let next = cursor;
  for (;;) {
    const res = await c.get(`${path}?limit=200${next ? `&cursor=${encodeURIComponent(next)}` : ""}`);
    expect(res.status, res.text).toBe(200);
    items.push(...res.body.data);
    next = res.body.next_cursor as string;
    if (!res.body.has_more) return { items, cursor: next };
  }
}

/** Every record of a list endpoint (`/requests`, `/webhook_subscriptions/{id}/deliveries`), all pages. */
export async function listAll(c: Client, path: string): Promise<Json[]> {
  const items: Json[] = [];
  let cursor: string | undefined;
  const sep = path.includes("?") ? "&" : "?";
  for (;;) {
    const res = await c.get(`${path}${sep}limit=200${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`);
    expect(res.status, res.text).toBe(200);
    items.push(...res.body.data);
    cursor = res.body.next_cursor as string;
    if (!res.body.has_more) return items;
  }
}

export type TimedResponse =
  | { ok: true; status: number; headers: Headers; text: string; body: Json; ms: number }
  | { ok: false; error: string; ms: number };

/** fetch that never hangs: a network error or a deadline passing is a result, not a throw. */
export async function timedFetch(url: string, init: RequestInit, timeoutMs = 10_000): Promise<TimedResponse> {
  const started = performance.now();
  try {
    const res = await fetch(url, { ...init, signal: AbortSignal.timeout(timeoutMs) });
    const text = await res.text();
    let body: Json = text;
    if (/[/+]json\b/.test(res.headers.get("content-type") ?? "") && text !== "") body = JSON.parse(text);
    return {
      ok: true,
      status: res.status,
      headers: res.headers,
      text,
      body,
      ms: performance.now() - started,
    };
  } catch (err) {
    const e = err as Error & { cause?: { code?: string } };
    return {
      ok: false,
      error: `${e.name}: ${e.message} ${e.cause?.code ?? ""}`,
      ms: performance.now() - started,
    };
  }
}

/** Waits until `GET /readyz` answers 200 (the database is back). */
export async function waitReady(origin: string, timeoutMs = 30_000): Promise<void> {
  await waitFor(
    async () => {
      const res = await timedFetch(`${origin}/readyz`, {}, 2000);
      return res.ok && res.status === 200 ? true : undefined;
    },
    `${origin}/readyz`,
    { timeoutMs, intervalMs: 100 },
  );
}

// The local cluster `pg_ctlcluster` controls; override with OISR_PG_CLUSTER="<version> <name>".
const [pgVersion, pgCluster] = (process.env.OISR_PG_CLUSTER ?? "15 main").split(/\s+/) as [string, string];

/** `pg_ctlcluster <version> <name> <action>`, asynchronously (the event loop keeps serving the test). */
export async function pgctl(action: "start" | "stop" | "restart"): Promise<void> {
  await run("pg_ctlcluster", ["--skip-systemctl-redirect", pgVersion, pgCluster, action], {
    timeout: 60_000,
  });
}

/** Whether the PostgreSQL at DATABASE_URL accepts connections. */
export async function pgIsReady(): Promise<boolean> {
  const url = new URL(adminUrl ?? "postgres://127.0.0.1:5432/postgres");
  try {
    await run("pg_isready", ["-h", url.hostname, "-p", url.port || "5432", "-t", "2"], { timeout: 10_000 });
    return true;
  } catch {
    return false;
  }
}

/** Starts PostgreSQL again if a test left it stopped, and waits until it accepts connections. */
export async function ensurePostgresRunning(): Promise<void> {
  if (await pgIsReady()) return;
  await pgctl("start").catch(() => {});
  for (let i = 0; i < 60 && !(await pgIsReady()); i++) await sleep(500);
}

/**
 * A fresh PostgreSQL database for one describe block, an account minter on it, and the server
 * processes the tests spawn (stopped afterwards): fill `servers` as you spawn them.
 */
export function useSpawnedSystem(): { db: { url: string }; minter: Minter; servers: SpawnedServer[] } {
  const handle = { db: { url: "" }, minter: undefined as unknown as Minter, servers: [] as SpawnedServer[] };
  let drop: (() => Promise<void>) | undefined;
  beforeAll(async () => {
    const db = await freshDatabase(adminUrl as string);
    drop = db.drop;
    handle.db.url = db.url;
    handle.minter = await accountMinter(db.url);
  });
  afterAll(async () => {
    await Promise.all(handle.servers.map((s) => s.stop()));
    await handle.minter?.close();
    await drop?.();
  });
  return handle;
}
