// Shared by the server's own tests (not used by the server): every store over a fresh database per
// test file, PGlite, or PostgreSQL when DATABASE_URL is set.
import { afterAll, beforeAll } from "vitest";
import { openServices, type Services } from "./services.ts";
import { freshDatabaseEnv } from "./webhooks/test-support.ts";

/** Opens the services before the file's tests (then calls `use`) and closes and drops them after. */
export function useFreshServices(use: (services: Services) => void | Promise<void>): void {
  let services: Services | undefined;
  let drop: (() => Promise<void>) | undefined;
  beforeAll(async () => {
    const db = await freshDatabaseEnv();
    drop = db.drop;
    services = await openServices({
      databaseUrl: db.env.DATABASE_URL,
      dataDir: db.env.OISR_DATA_DIR ?? "memory://",
    });
    await use(services);
  });
  afterAll(async () => {
    await services?.database.close();
    await drop?.();
  });
}
