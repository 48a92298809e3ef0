// A small ingest call's access is decided by the statement that stores it (decision 018): these are
// the rules that must hold as if it were decided up front. Refusals in order 401, 403, 429, then
// 400; a refused call stores and counts nothing; a 400 counts; a call above the deferral size takes
// the path decided up front; concurrent calls with one idempotency key store one request. PGlite,
// or PostgreSQL when DATABASE_URL is set.
import { order } from "@oisr/contract/fixtures";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "../src/db/client.ts";
import { DEFER_MAX_BYTES } from "../src/http/access.ts";
import { loadConfig, type RunningServer, startServer } from "../src/index.ts";
import { freshDatabaseEnv } from "../src/webhooks/test-support.ts";

let server: RunningServer;
let drop: () => Promise<void>;

beforeAll(async () => {
  const db = await freshDatabaseEnv();
  drop = db.drop;
  server = await startServer(
    loadConfig({
      PORT: "0",
      LOG_LEVEL: "silent",
      OISR_ROLE: "api",
      OISR_RATE_LIMITS: JSON.stringify({ ingest: 4 }),
      ...db.env,
    }),
  );
});

afterAll(async () => {
  await server?.close();
  await drop?.();
});

function post(secret: string, path: string, body: string, headers: Record<string, string> = {}) {
  return fetch(`${server.url}${path}`, {
    method: "POST",
    headers: { authorization: `Bearer ${secret}`, "content-type": "application/json", ...headers },
    body,
  });
}

async function stored(accountId: string): Promise<number> {
  const rows = await server.services.database.rows<{ n: number }>(
    sql`select count(*)::int as n from requests where account_id = ${accountId}`,
  );
  return Number(rows[0]?.n);
}

const valid = () => JSON.stringify({ orders: [order()] });
const remaining = (res: Response) => Number(res.headers.get("x-ratelimit-remaining"));

describe("ingest access decided by the storing statement", () => {
  it("an unknown secret is 401 whatever its body (malformed, invalid or valid), and closes the connection", async () => {
    for (const body of ["{", JSON.stringify({ orders: [] }), valid()]) {
      const res = await post("oisr_unknown", "/ingest/orders", body);
      expect(res.status).toBe(401);
      expect(res.headers.get("www-authenticate")).toContain("Bearer");
    }
  });

  it("429 wins over 400; a 400 counts, a 429 does not; only the 202s are stored", async () => {
    const { account_id, token } = await server.services.accounts.createAccount("limited");
    const first = await post(token, "/ingest/orders", valid());
    expect(first.status).toBe(202);
    expect(remaining(first)).toBe(3);
    const invalid = await post(token, "/ingest/orders", JSON.stringify({ orders: [{}] }));
    expect(invalid.status).toBe(400);
    expect(remaining(invalid)).toBe(2);
    const malformed = await post(token, "/ingest/orders", "{");
    expect(malformed.status).toBe(400);
    expect(remaining(malformed)).toBe(1);
    expect((await post(token, "/ingest/orders", valid())).status).toBe(202);
    for (const body of [valid(), JSON.stringify({ orders: [{}] }), "{"]) {
      const res = await post(token, "/ingest/orders", body);
      expect(res.status, body).toBe(429);
      expect(res.headers.get("retry-after")).toBeTruthy();
      expect(remaining(res)).toBe(0);
    }
    expect(await stored(account_id)).toBe(2);
  });

  it("concurrent calls of two accounts over their limit: each stores exactly its limit, the rest are 429", async () => {
    const a = await server.services.accounts.createAccount("burst-a");
    const b = await server.services.accounts.createAccount("burst-b");
    // Sent together, so most share a statement: each account is its own group there.
    const answers = await Promise.all(
      [a, b].flatMap(({ token }) => Array.from({ length: 7 }, () => post(token, "/ingest/orders", valid()))),
    );
    const statuses = answers.map((r) => r.status);
    for (const part of [statuses.slice(0, 7), statuses.slice(7)]) {
      expect(part.filter((s) => s === 202)).toHaveLength(4);
      expect(part.filter((s) => s === 429)).toHaveLength(3);
    }
    expect(await stored(a.account_id)).toBe(4);
    expect(await stored(b.account_id)).toBe(4);
  });

  it("a body above the deferral size is decided up front, and counted and stored alike", async () => {
    const { account_id, token } = await server.services.accounts.createAccount("large");
    const orders = Array.from({ length: 80 }, () => order());
    const body = JSON.stringify({ orders });
    expect(body.length).toBeGreaterThan(DEFER_MAX_BYTES);
    const res = await post(token, "/ingest/orders", body);
    expect(res.status).toBe(202);
    expect(remaining(res)).toBe(3);
    expect((await post("oisr_unknown", "/ingest/orders", body)).status).toBe(401);
    expect(await stored(account_id)).toBe(1);
  });

  it("concurrent calls with one idempotency key and body store one request and all answer it", async () => {
    const { account_id, token } = await server.services.accounts.createAccount("keyed");
    const body = valid();
    const answers = await Promise.all(
      Array.from({ length: 4 }, () => post(token, "/ingest/orders", body, { "idempotency-key": "same" })),
    );
    expect(answers.map((a) => a.status)).toEqual([202, 202, 202, 202]);
    const ids = new Set(
      await Promise.all(answers.map(async (a) => ((await a.json()) as { request_id: string }).request_id)),
    );
    expect(ids.size).toBe(1);
    expect(answers.filter((a) => a.headers.get("idempotent-replayed") === "true")).toHaveLength(3);
    expect(await stored(account_id)).toBe(1);
    const reused = await post(token, "/ingest/orders", valid(), { "idempotency-key": "same" });
    expect(reused.status).toBe(429);
  });
});
