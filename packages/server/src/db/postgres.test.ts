// Transaction-pooler mode (OISR_DATABASE_POOLING=transaction) without a LISTEN connection: wake-ups
// come from short polling, and a request still goes from 202 to succeeded. Through PgBouncer when
// OISR_PGBOUNCER_URL is set (scripts/pgbouncer.sh), else straight to PostgreSQL in the same mode.
import { order } from "@oisr/contract/fixtures";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../config.ts";
import { type RunningServer, startServer } from "../server.ts";
import { freshDatabase } from "./fresh-database.ts";
import { POLL_PAYLOAD } from "./postgres.ts";

const adminUrl = process.env.DATABASE_URL;

describe.runIf(adminUrl)("PostgreSQL behind a transaction pooler, no LISTEN connection", () => {
  let fresh: { url: string; drop(): Promise<void> };
  let server: RunningServer;
  beforeAll(async () => {
    fresh = await freshDatabase(adminUrl as string);
    const url = new URL(fresh.url);
    if (process.env.OISR_PGBOUNCER_URL) url.host = new URL(process.env.OISR_PGBOUNCER_URL).host;
    server = await startServer(
      loadConfig({
        DATABASE_URL: url.toString(),
        OISR_DATABASE_POOLING: "transaction",
        OISR_RATE_LIMITS: JSON.stringify({ ingest: 100_000, requests_read: 100_000 }),
        PORT: "0",
        LOG_LEVEL: "silent",
      }),
    );
  });
  afterAll(async () => {
    await server?.close();
    await fresh?.drop();
  });

  it("wakes listeners by polling", async () => {
    const heard: string[] = [];
    const stop = await server.services.database.listen("oisr_probe", (payload) => heard.push(payload));
    await new Promise((resolve) => setTimeout(resolve, 300));
    await stop();
    expect(heard.length).toBeGreaterThanOrEqual(2);
    expect(new Set(heard)).toEqual(new Set([POLL_PAYLOAD]));
  });

  it("applies an accepted request", async () => {
    const { token } = await server.services.accounts.createAccount("pooled");
    const headers = { authorization: `Bearer ${token}`, "content-type": "application/json" };
    const ack = await fetch(`${server.url}/ingest/orders`, {
      method: "POST",
      headers,
      body: JSON.stringify({ orders: [order({ external_id: "POOL-1" })] }),
    });
    expect(ack.status).toBe(202);
    const { request_id } = (await ack.json()) as { request_id: string };
    let status = "pending";
    for (let i = 0; i < 200 && status !== "succeeded"; i++) {
      const record = await fetch(`${server.url}/requests/${request_id}`, { headers });
      status = ((await record.json()) as { status: string }).status;
      if (status !== "succeeded") await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(status).toBe("succeeded");
  });

  it("answers 202 only once the request is stored: 20 concurrent callers reading each record at once never get 404", async () => {
    // With postgres.js's `max_pipeline: 1` (session 5's pooled setting), 1–18 of these 400 reads
    // answered 404 while the workers polled: the insert committed after its 202 had gone out.
    const { token } = await server.services.accounts.createAccount("pooled-read-your-writes");
    const headers = { authorization: `Bearer ${token}`, "content-type": "application/json" };
    const missing: string[] = [];
    await Promise.all(
      Array.from({ length: 20 }, async () => {
        for (let i = 0; i < 20; i++) {
          const ack = await fetch(`${server.url}/ingest/orders`, {
            method: "POST",
            headers,
            body: JSON.stringify({ orders: [order()] }),
          });
          const { request_id } = (await ack.json()) as { request_id: string };
          const read = await fetch(`${server.url}/requests/${request_id}`, { headers });
          await read.arrayBuffer();
          if (read.status !== 200) missing.push(`${request_id}: ${read.status}`);
        }
      }),
    );
    expect(missing).toEqual([]);
  });
});
