// Shared by the server's own tests (not used by the server): every store over a fresh database per
// test file, PGlite, or PostgreSQL when DATABASE_URL is set.
import { hash, randomUUID } from "node:crypto";
import { afterAll, beforeAll } from "vitest";
import type { RequestKind } from "./queue/statuses.ts";
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

/** A request to accept in a test: its kind and body, as the ingest route would store them. */
export interface TestRequest {
  kind: string;
  body: unknown;
}

/** Accepts requests as the ingest routes do (one call each, in order); returns their ids. */
export async function enqueueRequests(
  services: Services,
  accountId: string,
  ...requests: TestRequest[]
): Promise<string[]> {
  const ids: string[] = [];
  for (const r of requests) {
    const bodyJson = JSON.stringify(r.body);
    const outcome = await services.requests.accept({
      accountId,
      kind: r.kind as RequestKind,
      endpoint: `POST /ingest/${r.kind}`,
      params: null,
      bodyJson,
      bodyHash: hash("sha256", bodyJson, "hex"),
      itemCount: Object.values(r.body as Record<string, unknown[]>)[0]?.length ?? 0,
      idempotencyKey: null,
      traceId: randomUUID().replaceAll("-", ""),
    });
    if (outcome.kind !== "accepted") throw new Error("not accepted");
    ids.push(outcome.ack.request_id);
  }
  return ids;
}
