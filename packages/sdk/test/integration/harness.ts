// The real server, in-process, for the integration tests: on embedded PGlite always, and on
// PostgreSQL too when DATABASE_URL is set (a fresh database per server, dropped on close).
import { freshDatabase, loadConfig, startServer } from "@oisr/server";
import { type ClientOptions, createClient, type OisrClient } from "../../src/index.ts";

export interface Backend {
  name: string;
  /** Admin URL of a PostgreSQL server; undefined = PGlite in memory. */
  databaseUrl: string | undefined;
}

export const backends: Backend[] = [
  { name: "PGlite", databaseUrl: undefined },
  ...(process.env.DATABASE_URL ? [{ name: "PostgreSQL", databaseUrl: process.env.DATABASE_URL }] : []),
];

export interface TestServer {
  /** Ends in /v2. */
  baseUrl: string;
  /** A token of a new account: accounts do not share data or rate limits. */
  newToken(name?: string): Promise<string>;
  /** A client of a new account. */
  newClient(options?: Partial<ClientOptions>): Promise<OisrClient>;
  close(): Promise<void>;
}

export async function startTestServer(
  backend: Backend,
  env: Record<string, string> = {},
): Promise<TestServer> {
  const db = backend.databaseUrl ? await freshDatabase(backend.databaseUrl) : undefined;
  const server = await startServer(
    loadConfig({
      PORT: "0",
      LOG_LEVEL: "silent",
      OISR_DATA_DIR: "memory://",
      OISR_VALIDATE_RESPONSES: "1",
      ...(db ? { DATABASE_URL: db.url } : {}),
      ...env,
    }),
  );
  const baseUrl = server.url as string;
  const newToken = async (name = "sdk") => (await server.services.accounts.createAccount(name)).token;
  return {
    baseUrl,
    newToken,
    newClient: async (options = {}) => createClient({ baseUrl, token: await newToken(), ...options }),
    async close() {
      await server.close();
      await db?.drop();
    },
  };
}

// Unique ids and the fixtures' timeline (later minutes = newer `source_updated_at`/`as_of`).
export { at, uid } from "@oisr/contract/fixtures";
