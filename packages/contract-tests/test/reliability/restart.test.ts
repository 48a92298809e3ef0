// docs/product.md §3, §4, §6 and §7 while PostgreSQL restarts under load: during the outage every ingest is
// 202 or 503 problem+json with Retry-After (never another 5xx, never a hang) and the process lives
// on; afterwards every acknowledged request is applied exactly once, and every return event
// written before, during or after the outage reaches the subscriber (at-least-once).
// PostgreSQL only: it stops and starts the local cluster.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Json } from "../../src/client.ts";
import { order, returnOf } from "../../src/fixtures.ts";
import { client, expectProblem, RELAXED_LIMITS, succeeded } from "../../src/harness.ts";
import { sleep, waitFor } from "../../src/poll.ts";
import {
  adminUrl,
  drainFeed,
  ensurePostgresRunning,
  listAll,
  type Minter,
  pgctl,
  systemAt,
  type TimedResponse,
  timedFetch,
  waitReady,
} from "../../src/processes.ts";
import { accountMinter, freshDatabase, type SpawnedServer, spawnServer } from "../../src/targets.ts";
import { type Receiver, startReceiver, verifySignature } from "../../src/webhook-receiver.ts";

const REASON = "(PostgreSQL only: needs DATABASE_URL and pg_ctlcluster to stop and start the cluster)";

/** stop (fast: sessions are terminated), an outage of `outageMs`, start. */
async function outage(outageMs: number): Promise<{ stoppedAt: number; startedAt: number }> {
  await pgctl("stop");
  const stoppedAt = Date.now();
  await sleep(outageMs);
  await pgctl("start");
  return { stoppedAt, startedAt: Date.now() };
}

/** The process is still running; otherwise fail with what it printed last. */
function expectAlive(server: SpawnedServer): void {
  const { exitCode, signalCode } = server.child;
  expect(
    { exitCode, signalCode },
    `oisr-server exited during the outage; its last output:\n${server.output().slice(-3000)}`,
  ).toEqual({ exitCode: null, signalCode: null });
}

describe.skipIf(!adminUrl)(`PostgreSQL restarts under load ${REASON}`, () => {
  let db: Awaited<ReturnType<typeof freshDatabase>>;
  let minter: Minter;
  const servers: SpawnedServer[] = [];

  beforeAll(async () => {
    await ensurePostgresRunning();
    db = await freshDatabase(adminUrl as string);
    minter = await accountMinter(db.url);
  });

  afterAll(async () => {
    // Whatever happened, PostgreSQL runs again for the rest of the suite.
    await ensurePostgresRunning();
    await Promise.all(servers.map((s) => s.stop()));
    await minter?.close().catch(() => {});
    await db?.drop();
  });

  /** A fresh `oisr-server` (API + workers) per test, so a crash in one test does not fail the next. */
  async function start(): Promise<{ server: SpawnedServer; baseUrl: string }> {
    const server = spawnServer({
      ...RELAXED_LIMITS,
      DATABASE_URL: db.url,
      OISR_ROLE: "all",
      // A worker that lost its connection mid-apply cannot record the failure: its lease runs out.
      OISR_LEASE_MS: "3000",
      OISR_RETRY_BASE_MS: "200",
      OISR_WEBHOOK_ALLOW_PRIVATE_NETWORKS: "1",
      OISR_WEBHOOK_RETRY_SCHEDULE: "200ms,500ms,1s,1s,2s,2s,2s",
      // A dispatcher that could not record an attempt (database gone) lets its lease run out.
      OISR_WEBHOOK_LEASE_MS: "3000",
    });
    servers.push(server);
    return { server, baseUrl: await server.ready };
  }

  it("a loader at ~50 ingests/s through stop, 2 s down, start: every response is 202 or 503 problem+json with Retry-After, none hangs, the process lives; every 202 ends succeeded exactly once", async () => {
    const { server, baseUrl } = await start();
    const system = systemAt(baseUrl, db.url, minter);
    const c = client(system, await minter.create("restart-load"));
    type Sent = { externalId: string; at: number; res: TimedResponse };
    const sent: Sent[] = [];
    const inFlight = new Set<Promise<void>>();
    let loading = true;
    const fire = () => {
      const o = order();
      const at = Date.now();
      const p = timedFetch(
        `${baseUrl}/ingest/orders`,
        {
          method: "POST",
          headers: { authorization: `Bearer ${c.token}`, "content-type": "application/json" },
          body: JSON.stringify({ orders: [o] }),
        },
        10_000,
      ).then((res) => {
        sent.push({ externalId: o.external_id, at, res });
      });
      inFlight.add(p);
      void p.finally(() => inFlight.delete(p));
    };
    const loader = (async () => {
      // Paced by the clock (not by answers): a slow answer must not slow the load down.
      const started = Date.now();
      for (let i = 0; loading; i++) {
        fire();
        const due = started + (i + 1) * 20;
        await sleep(Math.max(0, due - Date.now()));
      }
    })();

    await sleep(1500);
    const { stoppedAt, startedAt } = await outage(2000);
    // Keep loading while the server notices the database is back.
    await waitReady(system.origin, 15_000).catch(() => {});
    await sleep(1500);
    loading = false;
    await loader;
    await Promise.all([...inFlight]);

    // The process never exited.
    expectAlive(server);

    const failures = sent.filter((s) => !s.res.ok);
    expect(
      failures.map(
        (f) => `${f.externalId} at +${f.at - stoppedAt} ms: ${(f.res as { error: string }).error}`,
      ),
      "no request may hang past 10 s or lose its connection",
    ).toEqual([]);
    const answered = sent.map((s) => ({ ...s, res: s.res as Extract<TimedResponse, { ok: true }> }));
    const byStatus = new Map<number, number>();
    for (const s of answered) byStatus.set(s.res.status, (byStatus.get(s.res.status) ?? 0) + 1);
    const summary = JSON.stringify(Object.fromEntries(byStatus));
    expect(
      [...byStatus.keys()].filter((s) => s !== 202 && s !== 503),
      summary,
    ).toEqual([]);
    for (const s of answered.filter((a) => a.res.status === 503)) {
      expectProblem(
        { status: s.res.status, headers: s.res.headers, body: s.res.body, text: s.res.text },
        503,
        "service_unavailable",
      );
      expect(Number(s.res.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    }
    // The outage was real (some 503s), and the load was real on both sides of it.
    expect(byStatus.get(503) ?? 0, summary).toBeGreaterThan(0);
    expect(answered.filter((s) => s.res.status === 202 && s.at < stoppedAt).length).toBeGreaterThan(20);
    expect(answered.filter((s) => s.res.status === 202 && s.at > startedAt).length).toBeGreaterThan(0);
    // Rough pacing check: ~50/s over the run.
    expect(sent.length).toBeGreaterThan(150);
    const slowest = Math.max(...answered.map((s) => s.res.ms));
    expect(slowest).toBeLessThan(10_000);

    // After recovery: every 202 ends succeeded, once.
    const accepted = answered.filter((s) => s.res.status === 202);
    const ids = new Map(accepted.map((s) => [s.res.body.request_id as string, s.externalId]));
    const records = await waitFor(
      async () => {
        const all = await listAll(c, "/requests");
        const mine = all.filter((r: Json) => ids.has(r.request_id));
        return mine.length === ids.size &&
          mine.every((r: Json) => r.status !== "pending" && r.status !== "processing")
          ? mine
          : undefined;
      },
      "every accepted request to be final",
      { timeoutMs: 45_000, intervalMs: 250 },
    );
    for (const record of records) {
      expect(record.status, JSON.stringify(record)).toBe("succeeded");
      expect(record.attempts).toBeGreaterThanOrEqual(1);
      expect(succeeded(record)).toMatchObject({ created: 1, updated: 0, unchanged: 0, stale: 0 });
      expect(record.result.items[0]).toMatchObject({ index: 0, type: "order", outcome: "created" });
    }
    const { items } = await drainFeed(c, undefined);
    const count = new Map<string, number>();
    for (const o of items) count.set(o.external_id, (count.get(o.external_id) ?? 0) + 1);
    for (const s of accepted) {
      expect(count.get(s.externalId), `${s.externalId} in the feed`).toBe(1);
    }
    // 503s that committed anyway (the answer was lost, not the commit) are allowed; nothing is doubled.
    expect([...count.values()].every((n) => n === 1)).toBe(true);
    expect(items.every((o) => o.version === 1)).toBe(true);
    console.info(
      `restart under load: ${sent.length} sent, ${summary}, outage ${startedAt - stoppedAt} ms, slowest ${Math.round(slowest)} ms, retried requests ${records.filter((r) => r.attempts > 1).length}`,
    );
  });

  it("return events in flight while PostgreSQL restarts all reach the subscriber afterwards (at-least-once), correctly signed", async () => {
    const { server, baseUrl } = await start();
    const system = systemAt(baseUrl, db.url, minter);
    const c = client(system, await minter.create("restart-webhooks"));
    // Each delivery is held 1 s, so attempts are open while the database goes away.
    let receiver: Receiver | undefined;
    try {
      receiver = await startReceiver(() => ({ status: 200, delayMs: 1000 }));
      const created = await c.post("/webhook_subscriptions", {
        url: receiver.url,
        events: ["return.created", "return.updated"],
      });
      expect(created.status, created.text).toBe(201);
      const secret = created.body.secret as string;

      const orders = Array.from({ length: 4 }, () => order());
      succeeded(await c.ingestAndWait("/ingest/orders", { orders }));
      // Two returns first; the others are submitted once the first delivery is being received.
      const returns = orders.map((o) => returnOf(o.external_id));
      const acks = [];
      for (const r of returns.slice(0, 2)) acks.push(await c.ingest("/ingest/returns", { returns: [r] }));
      const r = receiver;
      await waitFor(async () => (r.received.length > 0 ? true : undefined), "the first delivery to arrive", {
        timeoutMs: 20_000,
      });
      for (const ret of returns.slice(2)) acks.push(await c.ingest("/ingest/returns", { returns: [ret] }));
      // The first delivery is held by the receiver; the others are queued, applying or fanning out.
      await outage(2000);
      await waitReady(system.origin, 15_000).catch(() => {});
      expectAlive(server);

      for (const ack of acks) succeeded(await c.wait(ack.body.request_id, { timeoutMs: 30_000 }));
      const rmas = new Set(returns.map((x) => x.external_id));
      await waitFor(
        async () => {
          const got = new Set(
            r
              .acknowledged()
              .filter((e) => e.type === "return.created")
              .map((e) => e.data.object.external_id),
          );
          return [...rmas].every((id) => got.has(id)) ? true : undefined;
        },
        "return.created for every return acknowledged by the receiver",
        { timeoutMs: 30_000, intervalMs: 100 },
      );
      for (const received of r.received) expect(verifySignature(received, secret)).toBe(true);
      // Redeliveries carry the same event id; never two different events for one return version.
      const eventsByRma = new Map<string, Set<string>>();
      for (const e of r.received.map((x) => JSON.parse(x.body))) {
        if (e.type !== "return.created") continue;
        const set = eventsByRma.get(e.data.object.external_id) ?? new Set();
        set.add(e.id);
        eventsByRma.set(e.data.object.external_id, set);
      }
      for (const [rma, set] of eventsByRma) expect(set.size, rma).toBe(1);
      // And the server knows: each event has a succeeded attempt (the one cut short by the outage is made again).
      await waitFor(
        async () => {
          const attempts = await listAll(c, `/webhook_subscriptions/${created.body.id}/deliveries`);
          const ok = new Set(
            attempts.filter((a: Json) => a.status === "succeeded").map((a: Json) => a.event_id),
          );
          return [...eventsByRma.values()].every((set) => ok.has([...set][0])) ? true : undefined;
        },
        "a succeeded attempt recorded for every event",
        { timeoutMs: 30_000, intervalMs: 250 },
      );
      console.info(
        `restart with webhooks: ${r.received.length} deliveries received for ${rmas.size} return.created events`,
      );
    } finally {
      await receiver?.close();
    }
  });
});
