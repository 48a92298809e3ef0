// docs/product.md §4 at the queue's scale: a backlog of 10,000 one-order requests over 10 accounts, drained
// by two worker processes, one of them SIGKILLed mid-stage and replaced. Every request succeeds
// exactly once, and each account's orders reach its change feed in the order they were accepted
// (per-account FIFO across stages, leases and the kill). PostgreSQL only: processes share it.
import postgres from "postgres";
import { describe, expect, it } from "vitest";
import { order } from "../../src/fixtures.ts";
import { type Client, client } from "../../src/harness.ts";
import { waitFor } from "../../src/poll.ts";
import { adminUrl, drainFeed, systemAt, useSpawnedSystem } from "../../src/processes.ts";
import { spawnServer } from "../../src/targets.ts";

const REASON = "(PostgreSQL only: needs DATABASE_URL, PGlite cannot be shared by processes)";
const ACCOUNTS = 10;
const PER_ACCOUNT = 1000;

describe.skipIf(!adminUrl)(`a 10,000-request backlog, two workers, one killed mid-stage ${REASON}`, () => {
  const spawned = useSpawnedSystem();

  it("every request succeeds exactly once and each account's orders apply in the order they were accepted", async () => {
    const common = {
      DATABASE_URL: spawned.db.url,
      OISR_LEASE_MS: "1000",
      OISR_RATE_LIMITS: JSON.stringify({
        ingest: 1_000_000,
        orders_read: 1_000_000,
        requests_read: 1_000_000,
      }),
    };
    const apiProcess = spawnServer({ ...common, OISR_ROLE: "api" });
    spawned.servers.push(apiProcess);
    const system = systemAt(await apiProcess.ready, spawned.db.url, spawned.minter);
    const accounts: Client[] = [];
    for (let i = 0; i < ACCOUNTS; i++) accounts.push(client(system, await system.createAccount()));

    // Each account sends its orders one call after another (each after the previous 202), so their
    // acceptance order is known; the accounts send side by side.
    const sent = await Promise.all(
      accounts.map(async (c) => {
        const ids: string[] = [];
        for (let i = 0; i < PER_ACCOUNT; i++) {
          const o = order();
          await c.ingest("/ingest/orders", { orders: [o] });
          ids.push(o.external_id);
        }
        return ids;
      }),
    );

    const sql = postgres(spawned.db.url, { max: 1, onnotice: () => {} });
    const count = async (status: string) =>
      Number((await sql`select count(*) as n from requests where status = ${status}`)[0]?.n);
    try {
      const doomed = spawnServer({ ...common, OISR_ROLE: "worker" });
      const other = spawnServer({ ...common, OISR_ROLE: "worker" });
      spawned.servers.push(doomed, other);
      await Promise.all([doomed.ready, other.ready]);
      // Kill one while stages are in flight: some requests done, many still queued.
      await waitFor(async () => ((await count("succeeded")) >= 1000 ? true : undefined), "1,000 applied", {
        intervalMs: 2,
        timeoutMs: 60_000,
      });
      doomed.child.kill("SIGKILL");
      await new Promise((resolve) => doomed.child.once("exit", resolve));
      const replacement = spawnServer({ ...common, OISR_ROLE: "worker" });
      spawned.servers.push(replacement);
      await replacement.ready;

      await waitFor(
        async () => ((await count("succeeded")) === ACCOUNTS * PER_ACCOUNT ? true : undefined),
        "every request to succeed",
        { intervalMs: 50, timeoutMs: 120_000 },
      );
      const statuses = await sql`select status, count(*)::int as n from requests group by status`;
      expect(statuses.map((r) => [r.status, r.n])).toEqual([["succeeded", ACCOUNTS * PER_ACCOUNT]]);
      const queues =
        await sql`select sum(open_count)::int as open, count(*) filter (where due_at is not null)::int as due
                                 from request_queues`;
      expect(queues[0]).toEqual({ open: 0, due: 0 });
    } finally {
      await sql.end();
    }

    for (const [i, c] of accounts.entries()) {
      const { items } = await drainFeed(c, undefined);
      // Exactly once: each order created once (version 1), none missing, none twice.
      expect(items.every((o) => o.version === 1)).toBe(true);
      // FIFO: the feed (positions handed out in commit order) lists them in acceptance order.
      expect(items.map((o) => o.external_id)).toEqual(sent[i]);
    }
  }, 240_000); // sending 10,000 calls, then waits of up to 60 s and 120 s: past the default 60 s on a busy machine
});
