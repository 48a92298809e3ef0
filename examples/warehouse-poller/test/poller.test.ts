import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { createClient, type OisrClient, type OrderInput } from "@oisr/sdk";
import { loadConfig, type RunningServer, startServer } from "@oisr/server";
import { afterAll, beforeAll, expect, it } from "vitest";
import { OrderStore, type UpsertOutcome } from "../src/order-store.ts";
import { runPoller } from "../src/poller.ts";

let server: RunningServer;
let dir: string;

beforeAll(async () => {
  server = await startServer(loadConfig({ PORT: "0", LOG_LEVEL: "silent", OISR_DATA_DIR: "memory://" }));
  dir = await mkdtemp(join(tmpdir(), "oisr-poller-"));
});
afterAll(async () => {
  await server?.close();
  await rm(dir, { recursive: true, force: true });
});

/** A client of a new account: each test follows a feed of its own. */
async function newClient(name: string): Promise<OisrClient> {
  const { token } = await server.services.accounts.createAccount(name);
  return createClient({ baseUrl: server.url as string, token, throttle: true });
}

const order = (
  n: number,
  updatedAt = "2025-01-01T00:00:00Z",
  status: OrderInput["status"] = "open",
): OrderInput => ({
  external_id: `W-${n}`,
  source: "erp",
  status,
  currency: "EUR",
  placed_at: "2025-01-01T00:00:00Z",
  source_updated_at: updatedAt,
  ship_to: { name: "Ada", line1: "1 Main St", city: "Berlin", country: "DE" },
  lines: [{ line_id: "1", sku: `SKU-${n}`, quantity: 1, unit_price: "1.00" }],
});

async function serverVersions(client: OisrClient): Promise<Record<string, number>> {
  const versions: Record<string, number> = {};
  for await (const o of client.orders.iterate({ limit: 200 })) versions[o.id] = o.version;
  return versions;
}

/**
 * One run of the poller, as a process would do it: opens the store file, polls until the store
 * matches the server's orders (id → version), stops, closes the store. Returns the outcomes.
 */
async function pollUntilCaughtUp(client: OisrClient, file: string, pageSize = 200) {
  const expected = await serverVersions(client);
  const store = new OrderStore(file);
  const controller = new AbortController();
  const outcomes: UpsertOutcome[] = [];
  try {
    const running = runPoller({
      client,
      store,
      pageSize,
      intervalMs: 50,
      signal: controller.signal,
      onChange: (outcome) => outcomes.push(outcome),
    });
    await expect.poll(() => store.versions(), { timeout: 20_000, interval: 50 }).toEqual(expected);
    controller.abort();
    await running;
  } finally {
    store.close();
  }
  return outcomes;
}

const count = (outcomes: UpsertOutcome[], outcome: UpsertOutcome) =>
  outcomes.filter((o) => o === outcome).length;

it("restarts from its cursor without missing or repeating an order", async () => {
  const client = await newClient("warehouse");
  const file = join(dir, "restart", "orders.db");
  await client.orders.ingestAndWait([1, 2, 3, 4, 5].map((n) => order(n)));

  const first = await pollUntilCaughtUp(client, file, 2);
  expect(first).toEqual(Array(5).fill("inserted"));

  // While the poller is down: two orders change, three are new.
  await client.orders.ingestAndWait([
    order(2, "2025-01-02T00:00:00Z", "on_hold"),
    order(4, "2025-01-02T00:00:00Z", "cancelled"),
    ...[6, 7, 8].map((n) => order(n)),
  ]);

  // A new process: the store and its cursor come from the database file. It resumes after the
  // last stored page, so nothing already stored comes again (no "skipped").
  const second = await pollUntilCaughtUp(client, file, 2);
  expect({ inserted: count(second, "inserted"), updated: count(second, "updated") }).toEqual({
    inserted: 3,
    updated: 2,
  });
  expect(second).toHaveLength(5);

  const store = new OrderStore(file);
  try {
    const statuses = Object.fromEntries(
      Object.keys(store.versions())
        .map((id) => store.get(id))
        .map((o) => [o?.external_id, o?.status]),
    );
    expect(statuses).toEqual({
      "W-1": "open",
      "W-2": "on_hold",
      "W-3": "open",
      "W-4": "cancelled",
      "W-5": "open",
      "W-6": "open",
      "W-7": "open",
      "W-8": "open",
    });
  } finally {
    store.close();
  }
});

it("stores a page and its cursor together: a failure mid-page stores neither, and a restart resumes there", async () => {
  const client = await newClient("warehouse-crash");
  const file = join(dir, "crash", "orders.db");
  await client.orders.ingestAndWait([1, 2, 3, 4, 5, 6].map((n) => order(n)));

  // Pages of two orders: [W-1, W-2], [W-3, W-4], [W-5, W-6]. The database refuses W-4, after W-3
  // of the same page has been written: the poller stops with an error in the middle of page 2.
  const store = new OrderStore(file);
  const db = new DatabaseSync(file);
  db.exec(`CREATE TRIGGER crash BEFORE INSERT ON orders WHEN json_extract(NEW.body, '$.external_id') = 'W-4'
           BEGIN SELECT RAISE(ABORT, 'simulated crash'); END`);
  const outcomes: UpsertOutcome[] = [];
  await expect(
    runPoller({ client, store, pageSize: 2, intervalMs: 50, onChange: (o) => outcomes.push(o) }),
  ).rejects.toThrow("simulated crash");
  db.exec("DROP TRIGGER crash");
  db.close();

  // Page 1 and its cursor are stored; of page 2 nothing, not even W-3; the cursor is where page 2
  // starts.
  const externalIds = () =>
    Object.keys(store.versions())
      .map((id) => store.get(id)?.external_id)
      .sort();
  expect(outcomes).toEqual(["inserted", "inserted"]);
  expect(externalIds()).toEqual(["W-1", "W-2"]);
  const cursor = store.cursor();
  expect(cursor).toBeDefined();
  const next = await client.orders.list({ limit: 2, ...(cursor ? { cursor } : {}) });
  expect(next.data.map((o) => o.external_id)).toEqual(["W-3", "W-4"]);
  store.close();

  // A restart resumes from the stored cursor: page 2 again, then page 3, each order once.
  const restarted = await pollUntilCaughtUp(client, file, 2);
  expect(restarted).toEqual(Array(4).fill("inserted"));
  const reopened = new OrderStore(file);
  try {
    expect(
      Object.keys(reopened.versions())
        .map((id) => reopened.get(id)?.external_id)
        .sort(),
    ).toEqual(["W-1", "W-2", "W-3", "W-4", "W-5", "W-6"]);
  } finally {
    reopened.close();
  }
});
