// Shared by the server's own tests (not used by the server): every store over a fresh database per
// test file, PGlite, or PostgreSQL when DATABASE_URL is set.
import { hash, randomUUID } from "node:crypto";
import { order } from "@oisr/contract/fixtures";
import { afterAll, beforeAll } from "vitest";
import { sql } from "./db/client.ts";
import type { NewRequest } from "./queue/index.ts";
import type { RequestKind } from "./queue/statuses.ts";
import { insertPending } from "./queue/transitions.ts";
import { openServices, type Services } from "./services.ts";
import { newRequestId } from "./store/ids.ts";
import { freshDatabaseEnv } from "./webhooks/test-support.ts";

/** An ingest call of one order, as the API hands it to `requests.accept`. */
export function oneOrderCall(
  accountId: string,
  externalId: string,
  idempotencyKey: string | null = null,
): NewRequest {
  return ingestCall(
    accountId,
    { kind: "orders", body: { orders: [order({ external_id: externalId })] } },
    idempotencyKey,
  );
}

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

/** The ingest call of a request, as the ingest route hands it to `requests.accept`. */
export function ingestCall(
  accountId: string,
  r: TestRequest,
  idempotencyKey: string | null = null,
): NewRequest {
  const bodyJson = JSON.stringify(r.body);
  return {
    accountId,
    kind: r.kind as RequestKind,
    endpoint: `POST /ingest/${r.kind}`,
    params: null,
    bodyJson,
    bodyHash: hash("sha256", bodyJson, "hex"),
    itemCount: Object.values(r.body as Record<string, unknown[]>)[0]?.length ?? 0,
    idempotencyKey,
    apiKeyId: null,
    traceId: randomUUID().replaceAll("-", ""),
  };
}

/** Accepts requests as the ingest routes do (one call each, in order); returns their ids. */
export async function enqueueRequests(
  services: Services,
  accountId: string,
  ...requests: TestRequest[]
): Promise<string[]> {
  const ids: string[] = [];
  for (const r of requests) {
    const outcome = await services.requests.accept(ingestCall(accountId, r));
    if (outcome.kind !== "accepted") throw new Error("not accepted");
    ids.push(outcome.ack.request_id);
  }
  return ids;
}

/** The external_id of an order whose insert fails inside the database (installPoisonPill). */
export const POISON_ORDER_ID = "BOOM";

/**
 * A poison pill: inserting the order POISON_ORDER_ID fails inside the database, as a transient or
 * internal error would (the apply transaction rolls back and the request is retried, then dead).
 */
export async function installPoisonPill(services: Services): Promise<void> {
  await services.database.rows(sql`
    create function oisr_test_boom() returns trigger language plpgsql as $$
    begin
      if new.external_id = ${sql.raw(`'${POISON_ORDER_ID}'`)} then raise exception 'boom'; end if;
      return new;
    end $$`);
  await services.database.rows(sql`
    create trigger oisr_test_boom before insert on orders for each row execute function oisr_test_boom()`);
}

/** An order the business rules reject (duplicate line ids), so its whole request fails. */
export const badOrder = (externalId?: string) =>
  order({
    ...(externalId === undefined ? {} : { external_id: externalId }),
    lines: [
      { line_id: "1", sku: "SKU-1", quantity: 1, unit_price: "1.00" },
      { line_id: "1", sku: "SKU-1", quantity: 1, unit_price: "1.00" },
    ],
  });

/**
 * `n` pending requests of `accountId` with empty bodies, inserted straight into the queue (no
 * accept statement, no rate limit): for tests of the queue's own ordering and gauges.
 */
export const queueEmptyRequests = (services: Services, accountId: string, n: number) =>
  insertPending(
    services.database,
    JSON.stringify(
      Array.from({ length: n }, () => ({
        a: accountId,
        i: newRequestId(),
        k: "orders",
        t: "0",
        ik: null,
        p: null,
        b: {},
        n: 1,
      })),
    ),
  );

/** A request id (UUIDv7) carrying the time `ms`, as newRequestId makes one at that moment. */
export function requestIdAt(ms: number): string {
  const hex = ms.toString(16).padStart(12, "0");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}${newRequestId().slice(13)}`;
}

/**
 * A pending request of `accountId` whose id carries the time `ms`, inserted straight into the queue
 * (so into the `requests` partition of that time): for tests of partitions and retention.
 */
export async function insertRequestAt(services: Services, accountId: string, ms: number): Promise<string> {
  const id = requestIdAt(ms);
  await insertPending(
    services.database,
    JSON.stringify([{ a: accountId, i: id, k: "orders", t: "0", ik: null, p: null, b: {}, n: 1 }]),
  );
  return id;
}
