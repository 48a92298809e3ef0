import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createClient, type OisrClient, type OrderInput } from "@oisr/sdk";
import { loadConfig, type RunningServer, startServer } from "@oisr/server";
import { afterAll, beforeAll, expect, it } from "vitest";
import { JsonOrderStore } from "../src/json-store.ts";
import { readCursor, runPoller } from "../src/poller.ts";

let server: RunningServer;
let client: OisrClient;
let dir: string;

beforeAll(async () => {
  server = await startServer(loadConfig({ PORT: "0", LOG_LEVEL: "silent", OISR_DATA_DIR: "memory://" }));
  const { token } = await server.services.accounts.createAccount("warehouse");
  client = createClient({ baseUrl: server.url as string, token, throttle: true });
  dir = await mkdtemp(join(tmpdir(), "oisr-poller-"));
});
afterAll(async () => {
  await server?.close();
  await rm(dir, { recursive: true, force: true });
});

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

/** Runs the poller until the store matches the server's orders (id → version), then stops it. */
async function pollUntilCaughtUp(store: JsonOrderStore, cursorFile: string) {
  const expected: Record<string, number> = {};
  for await (const o of client.orders.iterate({ limit: 200 })) expected[o.id] = o.version;
  const controller = new AbortController();
  const outcomes: string[] = [];
  const running = runPoller({
    client,
    store,
    cursorFile,
    intervalMs: 50,
    signal: controller.signal,
    onChange: (outcome) => outcomes.push(outcome),
  });
  const versions = () => Object.fromEntries(Object.values(store.data.orders).map((o) => [o.id, o.version]));
  await expect.poll(versions, { timeout: 20_000, interval: 50 }).toEqual(expected);
  controller.abort();
  await running;
  return outcomes;
}

it("restarts from its cursor without missing or duplicating an order", async () => {
  const storeFile = join(dir, "orders.json");
  const cursorFile = join(dir, "orders.cursor");
  await client.orders.ingestAndWait([1, 2, 3, 4, 5].map((n) => order(n)));

  const first = await pollUntilCaughtUp(new JsonOrderStore(storeFile), cursorFile);
  expect(first.filter((o) => o === "inserted")).toHaveLength(5);
  expect(readCursor(cursorFile)).toBeDefined();

  // While the poller is down: two orders change, three are new.
  await client.orders.ingestAndWait([
    order(2, "2025-01-02T00:00:00Z", "on_hold"),
    order(4, "2025-01-02T00:00:00Z", "cancelled"),
    ...[6, 7, 8].map((n) => order(n)),
  ]);

  // A new process: the store and the cursor come from disk.
  const store = new JsonOrderStore(storeFile);
  const second = await pollUntilCaughtUp(store, cursorFile);
  expect(second.filter((o) => o === "inserted")).toHaveLength(3);
  expect(second.filter((o) => o === "updated")).toHaveLength(2);

  const byExternal = Object.fromEntries(
    Object.values(store.data.orders).map((o) => [o.external_id, o.status]),
  );
  expect(byExternal).toEqual({
    "W-1": "open",
    "W-2": "on_hold",
    "W-3": "open",
    "W-4": "cancelled",
    "W-5": "open",
    "W-6": "open",
    "W-7": "open",
    "W-8": "open",
  });
  // Every (order, version) was written exactly once across both runs.
  expect(new Set(store.data.writes).size).toBe(store.data.writes.length);
  expect(store.data.writes).toHaveLength(10);
});
