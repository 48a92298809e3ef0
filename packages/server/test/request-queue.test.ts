// GET /requests/queue with the queue held still: an API-only server (OISR_ROLE=api) runs no worker,
// so what is accepted stays open and the figures are exact. The contract suite checks the same
// endpoint's invariants on every target while workers drain it. PGlite, or PostgreSQL when
// DATABASE_URL is set.
import { order } from "@oisr/contract/fixtures";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "../src/db/client.ts";
import { loadConfig, type RunningServer, startServer } from "../src/index.ts";
import { freshDatabaseEnv } from "../src/webhooks/test-support.ts";

let server: RunningServer;
let drop: () => Promise<void>;

beforeAll(async () => {
  const db = await freshDatabaseEnv();
  drop = db.drop;
  server = await startServer(loadConfig({ PORT: "0", LOG_LEVEL: "silent", OISR_ROLE: "api", ...db.env }));
});

afterAll(async () => {
  await server?.close();
  await drop?.();
});

async function call(token: string, method: string, path: string, body?: unknown) {
  const res = await fetch(`${server.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: res.status, body: await res.json() };
}

describe("GET /requests/queue", () => {
  it("counts the open requests and names the first accepted; a started head counts as processing", async () => {
    const { token, account_id: accountId } = await server.services.accounts.createAccount("queue");
    const other = await server.services.accounts.createAccount("queue-other");
    expect((await call(token, "GET", "/requests/queue")).body).toEqual({
      open: 0,
      pending: 0,
      processing: 0,
      oldest_open: null,
    });
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const ack = await call(token, "POST", "/ingest/orders", { orders: [order()] });
      expect(ack.status).toBe(202);
      ids.push(ack.body.request_id);
    }
    const first = await call(token, "GET", `/requests/${ids[0]}`);
    const queue = await call(token, "GET", "/requests/queue");
    expect(queue).toEqual({
      status: 200,
      body: {
        open: 3,
        pending: 3,
        processing: 0,
        oldest_open: { request_id: ids[0], status: "pending", accepted_at: first.body.accepted_at },
      },
    });
    // Another account's queue is its own.
    expect((await call(other.token, "GET", "/requests/queue")).body.open).toBe(0);
    // As a worker's stage start marks it (queue/transitions.ts): the head is processing.
    await server.services.database.rows(
      sql`update requests set status = 'processing', attempts = 1, started_at = now()
           where account_id = ${accountId} and id = ${ids[0]}`,
    );
    expect((await call(token, "GET", "/requests/queue")).body).toMatchObject({
      open: 3,
      pending: 2,
      processing: 1,
      oldest_open: { request_id: ids[0], status: "processing" },
    });
  });
});
