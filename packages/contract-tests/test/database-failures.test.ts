// docs/product.md §4 and §7 when the database misbehaves: `dead` requests (every attempt times out on a lock
// held from outside) and 503 while the database refuses connections. Both are provoked through
// the system's own PostgreSQL database, so they run on PostgreSQL only.
import postgres from "postgres";
import { describe, expect, it } from "vitest";
import { order } from "../src/fixtures.ts";
import { expectProblem, succeeded, useSystem } from "../src/harness.ts";
import { waitFor } from "../src/poll.ts";
import { targets } from "../src/targets.ts";
import { whileTableLocked } from "./table-lock.ts";

describe.each(targets)("database failures — $name", (target) => {
  const h = useSystem(target, {
    OISR_MAX_ATTEMPTS: "2",
    OISR_RETRY_BASE_MS: "20",
    OISR_APPLY_LOCK_TIMEOUT_MS: "100",
  });

  it("a request that times out on a lock on every attempt ends dead after OISR_MAX_ATTEMPTS, nothing applied; resubmitting succeeds (PostgreSQL only: needs the database to hold a lock from outside)", async (ctx) => {
    const databaseUrl = h.system.databaseUrl;
    if (!databaseUrl) {
      ctx.skip();
      return;
    }
    const c = await h.account();
    const o = order();
    const seen: string[] = [];
    const record = await whileTableLocked(databaseUrl, "orders", async () => {
      const ack = await c.ingest("/ingest/orders", { orders: [o] });
      return c.wait(ack.body.request_id, {
        timeoutMs: 20_000,
        intervalMs: 5,
        observe: (r) => {
          if (seen.at(-1) !== r.status) seen.push(r.status);
        },
      });
    });
    expect(record).toMatchObject({
      status: "dead",
      attempts: 2,
      result: null,
      errors: [],
      error: { code: "processing_failed", message: expect.any(String) },
    });
    expect(record.completed_at).not.toBeNull();
    // Retries stay inside processing: never back to pending, never failed on the way.
    expect(seen.filter((s) => s !== "pending")).toEqual(
      seen.includes("processing") ? ["processing", "dead"] : ["dead"],
    );
    // No internals in the message.
    expect(record.error.message).not.toMatch(/lock|timeout|orders|sql|postgres/i);
    // Nothing was applied.
    expectProblem(await c.get(`/orders/${o.external_id}`), 404, "not_found");
    expect((await c.get("/orders")).body.data).toEqual([]);
    // Resubmitting the same body is safe and succeeds now.
    const again = await c.ingestAndWait("/ingest/orders", { orders: [o] });
    expect(succeeded(again).items[0].outcome).toBe("created");
    expect(again.attempts).toBe(1);
    expect((await c.get(`/orders/${o.external_id}`)).body.version).toBe(1);
  });

  it("while the database refuses connections, /v2 calls are 503 service_unavailable with Retry-After and /readyz is 503; afterwards all works again (PostgreSQL only: needs to switch the database off from outside)", async (ctx) => {
    const databaseUrl = h.system.databaseUrl;
    if (!databaseUrl) {
      ctx.skip();
      return;
    }
    const c = await h.account();
    const o = order();
    succeeded(await c.ingestAndWait("/ingest/orders", { orders: [o] }));
    const adminUrl = new URL(databaseUrl);
    const name = adminUrl.pathname.slice(1);
    adminUrl.pathname = "/postgres";
    const admin = postgres(adminUrl.toString(), { max: 1, onnotice: () => {} });
    try {
      await admin.unsafe(`alter database "${name}" allow_connections false`);
      await admin.unsafe(
        `select pg_terminate_backend(pid) from pg_stat_activity where datname = '${name}' and pid <> pg_backend_pid()`,
      );
      const calls = [
        () => c.get("/orders"),
        () => c.get(`/orders/${o.external_id}`),
        () => c.get("/requests"),
        () => c.post("/ingest/orders", { orders: [order()] }),
        () => c.get("/inventory"),
      ];
      for (const call of calls) {
        const res = await call();
        expectProblem(res, 503, "service_unavailable");
        expect(Number(res.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
      }
      const ready = await fetch(`${h.system.origin}/readyz`);
      expect(ready.status).toBe(503);
      expect(ready.headers.get("content-type")).toMatch(/^application\/problem\+json/);
      expect(Number(ready.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
      // Liveness does not depend on the database.
      expect((await fetch(`${h.system.origin}/healthz`)).status).toBe(200);
    } finally {
      await admin.unsafe(`alter database "${name}" allow_connections true`);
      await admin.end({ timeout: 5 });
    }
    await waitFor(
      async () => ((await fetch(`${h.system.origin}/readyz`)).status === 200 ? true : undefined),
      "readiness",
      {
        timeoutMs: 15_000,
        intervalMs: 50,
      },
    );
    // Behind a pooler, a new server connection may still be refused for a moment after the
    // database is back (PgBouncer's server_login_retry): 503s, which callers retry, then 200s.
    await waitFor(
      async () => ((await c.get(`/orders/${o.external_id}`)).status === 200 ? true : undefined),
      "reads",
      { timeoutMs: 15_000, intervalMs: 100 },
    );
    const again = order();
    const ack = await waitFor(
      async () => {
        const res = await c.post(
          "/ingest/orders",
          { orders: [again] },
          { "idempotency-key": again.external_id },
        );
        return res.status === 202 ? res : undefined;
      },
      "an ingest",
      { timeoutMs: 15_000, intervalMs: 100 },
    );
    // Polled as the SDK polls: a 503 (a pooled server connection found dead on first use) is retried.
    const record = await waitFor(
      async () => {
        const res = await c.get(`/requests/${ack.body.request_id}`);
        return res.status === 200 && !["pending", "processing"].includes(res.body.status)
          ? res.body
          : undefined;
      },
      "the request to end",
      { timeoutMs: 15_000, intervalMs: 50 },
    );
    succeeded(record);
  });
});
