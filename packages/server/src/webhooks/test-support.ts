// Shared by the webhook tests (not used by the server): a real HTTP receiver on 127.0.0.1, a
// fresh database per test file (PGlite, or PostgreSQL when DATABASE_URL is set), and polling.

import { createHmac } from "node:crypto";
import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll } from "vitest";
import { type Database, openDatabase } from "../db/client.ts";
import { freshDatabase } from "../db/fresh-database.ts";

export interface Received {
  headers: IncomingHttpHeaders;
  body: string;
  path: string;
}

export interface Receiver {
  url: string;
  received: Received[];
  /** Decides the status of each request (default 204); may hang by never resolving. */
  respond: (req: Received, index: number) => number | Promise<number>;
  close(): Promise<void>;
}

export async function startReceiver(respond: Receiver["respond"] = () => 204): Promise<Receiver> {
  const receiver: Receiver = { url: "", received: [], respond, close: async () => {} };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", async () => {
      const entry = {
        headers: req.headers,
        body: Buffer.concat(chunks).toString("utf8"),
        path: req.url ?? "/",
      };
      const index = receiver.received.push(entry) - 1;
      const status = await receiver.respond(entry, index);
      res.writeHead(status).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
  receiver.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return receiver;
}

/**
 * Verifies a delivery the way a Standard Webhooks receiver does: any v1 signature made with the
 * secret. node:crypto on purpose, so the tests do not check the signer with itself.
 */
export function hasValidSignature(received: Received, secret: string): boolean {
  const id = received.headers["webhook-id"];
  const timestamp = received.headers["webhook-timestamp"];
  const header = String(received.headers["webhook-signature"] ?? "");
  const key = Buffer.from(secret.slice("whsec_".length), "base64");
  const expected = `v1,${createHmac("sha256", key).update(`${id}.${timestamp}.${received.body}`).digest("base64")}`;
  return header.split(" ").includes(expected);
}

export async function waitFor<T>(
  probe: () => T | undefined | Promise<T | undefined>,
  what: string,
  timeoutMs = 10_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A fresh PostgreSQL database when DATABASE_URL is set (dropped by `drop`), else in-memory PGlite. */
export async function freshDatabaseEnv(): Promise<{ env: Record<string, string>; drop(): Promise<void> }> {
  const adminUrl = process.env.DATABASE_URL;
  if (!adminUrl) return { env: { OISR_DATA_DIR: "memory://" }, drop: async () => {} };
  const db = await freshDatabase(adminUrl);
  return { env: { DATABASE_URL: db.url }, drop: db.drop };
}

/** Opens a fresh database before the test file's tests (handed to `use`), closes and drops it after them. */
export function useFreshDatabase(use: (database: Database) => void): void {
  let database: Database | undefined;
  let drop: (() => Promise<void>) | undefined;
  beforeAll(async () => {
    const fresh = await freshDatabaseEnv();
    drop = fresh.drop;
    database = await openDatabase({ databaseUrl: fresh.env.DATABASE_URL, dataDir: "memory://" });
    use(database);
  });
  afterAll(async () => {
    await database?.close();
    await drop?.();
  });
}
