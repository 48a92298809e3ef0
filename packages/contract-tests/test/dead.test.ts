// Section 4, `dead`: a request that cannot be applied on any attempt. Provoked by holding a lock
// on the orders table from outside, which needs the system's own PostgreSQL database.
import postgres from "postgres";
import { describe, expect, it } from "vitest";
import { order } from "../src/fixtures.ts";
import { expectProblem, succeeded, useSystem } from "../src/harness.ts";
import { targets } from "../src/targets.ts";

describe.each(targets)("dead requests — $name", (target) => {
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
    const sql = postgres(databaseUrl, { max: 1, onnotice: () => {} });
    const o = order();
    try {
      let release = () => {};
      const released = new Promise<void>((resolve) => {
        release = resolve;
      });
      let locked = () => {};
      const isLocked = new Promise<void>((resolve) => {
        locked = resolve;
      });
      const holder = sql.begin(async (tx) => {
        await tx`lock table orders in access exclusive mode`;
        locked();
        await released;
      });
      await isLocked;
      let record: Awaited<ReturnType<typeof c.wait>>;
      const seen: string[] = [];
      try {
        const ack = await c.ingest("/ingest/orders", { orders: [o] });
        record = await c.wait(ack.body.request_id, {
          timeoutMs: 20_000,
          intervalMs: 5,
          observe: (r) => {
            if (seen.at(-1) !== r.status) seen.push(r.status);
          },
        });
      } finally {
        release();
        await holder;
      }
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
    } finally {
      await sql.end({ timeout: 5 });
    }
  });
});
