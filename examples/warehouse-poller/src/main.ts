// Runs the poller until Ctrl-C: OISR_BASE_URL, OISR_TOKEN; STORE_FILE (the SQLite database,
// default data/orders.db in this example's directory, git-ignored), POLL_INTERVAL_MS (default 5000).
import { fileURLToPath } from "node:url";
import { createClient } from "@oisr/sdk";
import { OrderStore } from "./order-store.ts";
import { runPoller } from "./poller.ts";

const token = process.env.OISR_TOKEN;
if (!token) {
  console.error("Set OISR_TOKEN (and OISR_BASE_URL if the API is not on http://127.0.0.1:8080/v2).");
  process.exit(2);
}
const controller = new AbortController();
process.once("SIGINT", () => controller.abort());
process.once("SIGTERM", () => controller.abort());

const store = new OrderStore(
  process.env.STORE_FILE ?? fileURLToPath(new URL("../data/orders.db", import.meta.url)),
);
console.log(`Store: ${store.path} (${store.count()} orders)`);
try {
  await runPoller({
    client: createClient({
      baseUrl: process.env.OISR_BASE_URL ?? "http://127.0.0.1:8080/v2",
      token,
      throttle: true,
    }),
    store,
    intervalMs: Number(process.env.POLL_INTERVAL_MS ?? 5000),
    signal: controller.signal,
    onChange: (outcome, id, version) => console.log(`${outcome} ${id} v${version}`),
  });
} finally {
  store.close();
}
