// OISR_DATABASE_POOL_SIZE reaches the driver: concurrent statements share at most that many
// PostgreSQL backends, where the default opens one per statement up to 10; a worker process whose
// pool is smaller than its pipelined stages need says so when it starts.
import { sql } from "drizzle-orm";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../config.ts";
import { startServer } from "../server.ts";
import { openServices } from "../services.ts";
import { freshDatabase } from "./fresh-database.ts";

const adminUrl = process.env.DATABASE_URL;

/** The distinct backends that answered `n` statements sent at once, each holding its backend 50 ms. */
async function backendsFor(poolSize: number | undefined, url: string, n: number): Promise<number> {
  const services = await openServices({ databaseUrl: url, dataDir: "", databasePoolSize: poolSize });
  try {
    const answers = await Promise.all(
      Array.from({ length: n }, () =>
        services.database.rows<{ pid: number }>(sql`select pg_backend_pid() as pid, pg_sleep(0.05)`),
      ),
    );
    return new Set(answers.map(([row]) => row?.pid)).size;
  } finally {
    await services.database.close();
  }
}

describe.runIf(adminUrl)("OISR_DATABASE_POOL_SIZE (PostgreSQL only: PGlite has one connection)", () => {
  let fresh: { url: string; drop(): Promise<void> };
  beforeAll(async () => {
    fresh = await freshDatabase(adminUrl as string);
  });
  afterAll(async () => {
    await fresh?.drop();
  });

  it("caps the connections a process opens", async () => {
    expect(await backendsFor(2, fresh.url, 6)).toBe(2);
  });

  it("opens up to 10 by default", async () => {
    expect(await backendsFor(undefined, fresh.url, 6)).toBe(6);
  });

  /** The messages a worker process logs at warn while it starts, with `env` on top of the database's. */
  async function startupWarnings(env: Record<string, string>): Promise<string[]> {
    const messages: string[] = [];
    const logger = pino({ level: "warn" }, { write: (line: string) => messages.push(JSON.parse(line).msg) });
    const server = await startServer(loadConfig({ DATABASE_URL: fresh.url, OISR_ROLE: "worker", ...env }), {
      logger,
    });
    await server.close();
    return messages;
  }

  it("too small for a worker process's stages is warned of at start", async () => {
    expect(await startupWarnings({ OISR_DATABASE_POOL_SIZE: "3" })).toContainEqual(
      expect.stringMatching(/OISR_DATABASE_POOL_SIZE is below 2 × OISR_WORKER_CONCURRENCY \+ 2/),
    );
    expect(await startupWarnings({})).not.toContainEqual(expect.stringMatching(/OISR_DATABASE_POOL_SIZE/));
  });
});
