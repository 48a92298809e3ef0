// docs/product.md §6 across a crash: the worker process that runs the webhook dispatcher is SIGKILLed while
// a delivery is open at the receiver; a new worker process delivers the event again once the
// dead dispatcher's lease runs out (at-least-once), signed as the contract says, and nothing is lost.
// PostgreSQL only: the API and the workers are separate processes on one database.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Json } from "../../src/client.ts";
import { order, returnOf } from "../../src/fixtures.ts";
import { client, RELAXED_LIMITS, succeeded } from "../../src/harness.ts";
import { waitFor } from "../../src/poll.ts";
import { adminUrl, listAll, type Minter, systemAt } from "../../src/processes.ts";
import { accountMinter, freshDatabase, type SpawnedServer, spawnServer } from "../../src/targets.ts";
import { type Receiver, startReceiver, verifySignature } from "../../src/webhook-receiver.ts";

const REASON = "(PostgreSQL only: needs DATABASE_URL, PGlite cannot be shared by processes)";
/** The dispatcher's lease on an attempt (OISR_WEBHOOK_LEASE_MS; the attempt timeout is half of it, 2.5 s > HOLD_MS). */
const LEASE_MS = 5000;
const HOLD_MS = 2000;

describe.skipIf(!adminUrl)(`a webhook dispatcher killed mid-delivery ${REASON}`, () => {
  let db: Awaited<ReturnType<typeof freshDatabase>>;
  let minter: Minter;
  let receiver: Receiver;
  const servers: SpawnedServer[] = [];

  beforeAll(async () => {
    db = await freshDatabase(adminUrl as string);
    minter = await accountMinter(db.url);
    // Every delivery is held open ~2 s before the 200.
    receiver = await startReceiver(() => ({ status: 200, delayMs: HOLD_MS }));
  });

  afterAll(async () => {
    await Promise.all(servers.map((s) => s.stop()));
    await receiver?.close();
    await minter?.close();
    await db?.drop();
  });

  it("SIGKILL of the worker while the receiver holds the return.created delivery: a new worker delivers it again after the lease, validly signed, and it is acknowledged", async () => {
    const common = {
      ...RELAXED_LIMITS,
      DATABASE_URL: db.url,
      OISR_WEBHOOK_ALLOW_PRIVATE_NETWORKS: "1",
      OISR_WEBHOOK_RETRY_SCHEDULE: "200ms,500ms,1s,2s",
      OISR_WEBHOOK_LEASE_MS: String(LEASE_MS),
    };
    const apiProcess = spawnServer({ ...common, OISR_ROLE: "api" });
    servers.push(apiProcess);
    const system = systemAt(await apiProcess.ready, db.url, minter);
    const c = client(system, await minter.create("dispatcher-kill"));

    const doomed = spawnServer({ ...common, OISR_ROLE: "worker" });
    servers.push(doomed);
    await doomed.ready;

    const created = await c.post("/webhook_subscriptions", {
      url: receiver.url,
      events: ["return.created", "return.updated"],
    });
    expect(created.status, created.text).toBe(201);
    const { id: subscriptionId, secret } = created.body as { id: string; secret: string };

    const o = order();
    const r = returnOf(o.external_id);
    succeeded(await c.ingestAndWait("/ingest/orders", { orders: [o] }));
    succeeded(await c.ingestAndWait("/ingest/returns", { returns: [r] }));

    // The delivery is open at the receiver (held): kill the dispatcher mid-delivery.
    const first = await waitFor(
      async () => receiver.received.find((d) => JSON.parse(d.body).type === "return.created"),
      "the return.created delivery to reach the receiver",
      { timeoutMs: 20_000, intervalMs: 10 },
    );
    doomed.child.kill("SIGKILL");
    await new Promise((resolve) => doomed.child.once("exit", resolve));
    const killedAt = Date.now();
    expect(first.answered, "the kill came before the receiver answered").toBeUndefined();
    const eventId = String(first.headers["webhook-id"]);

    const replacement = spawnServer({ ...common, OISR_ROLE: "worker" });
    servers.push(replacement);
    await replacement.ready;

    // Delivered again (same event id) and answered 2xx this time.
    const again = await waitFor(
      async () =>
        receiver.received.find(
          (d) => d !== first && d.headers["webhook-id"] === eventId && d.answered === 200,
        ),
      "the event to be delivered again and acknowledged",
      { timeoutMs: LEASE_MS + HOLD_MS + 15_000, intervalMs: 50 },
    );
    const redeliveredAfterMs = again.receivedAt - killedAt;

    for (const d of receiver.received) {
      expect(verifySignature(d, secret), `signature of ${d.headers["webhook-id"]}`).toBe(true);
      // The timestamp is fresh on each attempt (within 5 minutes of when it arrived).
      expect(Math.abs(Number(d.headers["webhook-timestamp"]) * 1000 - d.receivedAt)).toBeLessThan(300_000);
    }
    const body = JSON.parse(again.body);
    expect(body).toMatchObject({
      id: eventId,
      type: "return.created",
      data: { object: { external_id: r.external_id, order_external_id: o.external_id, version: 1 } },
    });
    // The same bytes, event for event: a redelivery is the same event, not a new one.
    expect(JSON.parse(first.body)).toEqual(body);

    // No event lost: return.created was acknowledged at least once, and the server recorded a
    // succeeded attempt for it (the killed attempt never recorded anything).
    expect(receiver.acknowledged().filter((e) => e.type === "return.created")).not.toHaveLength(0);
    let lastSeen: Json[] = [];
    const attempts = await waitFor(
      async () => {
        const all = await listAll(c, `/webhook_subscriptions/${subscriptionId}/deliveries`);
        lastSeen = all;
        return all.some((a: Json) => a.event_id === eventId && a.status === "succeeded") ? all : undefined;
      },
      "a succeeded attempt for the event",
      { timeoutMs: 10_000, intervalMs: 100 },
    ).catch((err) => {
      throw new Error(
        `${err.message}; attempts: ${JSON.stringify(lastSeen)}; receiver saw: ${JSON.stringify(receiver.received.map((d) => ({ id: d.headers["webhook-id"], at: d.receivedAt - killedAt, answered: d.answered })))}`,
      );
    });
    const forEvent = attempts.filter((a: Json) => a.event_id === eventId);
    expect(forEvent.filter((a: Json) => a.status === "succeeded")).toHaveLength(1);
    expect(forEvent.every((a: Json) => a.status === "succeeded" || a.status === "pending")).toBe(true);
    // Taken over after the lease, not earlier, and not much later.
    expect(redeliveredAfterMs).toBeGreaterThan(LEASE_MS - 1000);
    expect(redeliveredAfterMs).toBeLessThan(LEASE_MS + 5000);
    console.info(
      `dispatcher kill: redelivered ${redeliveredAfterMs} ms after the kill (lease ${LEASE_MS} ms), ${receiver.received.length} deliveries received`,
    );
  });
});
