// Runs the poller until Ctrl-C: OISR_BASE_URL, OISR_TOKEN; STORE_FILE (default orders.json),
// CURSOR_FILE (default orders.cursor), POLL_INTERVAL_MS (default 5000).
import { createClient } from "@oisr/sdk";
import { JsonOrderStore } from "./json-store.ts";
import { runPoller } from "./poller.ts";

const token = process.env.OISR_TOKEN;
if (!token) {
  console.error("Set OISR_TOKEN (and OISR_BASE_URL if the API is not on http://127.0.0.1:8080/v2).");
  process.exit(2);
}
const controller = new AbortController();
process.once("SIGINT", () => controller.abort());
process.once("SIGTERM", () => controller.abort());

await runPoller({
  client: createClient({
    baseUrl: process.env.OISR_BASE_URL ?? "http://127.0.0.1:8080/v2",
    token,
    throttle: true,
  }),
  store: new JsonOrderStore(process.env.STORE_FILE ?? "orders.json"),
  cursorFile: process.env.CURSOR_FILE ?? "orders.cursor",
  intervalMs: Number(process.env.POLL_INTERVAL_MS ?? 5000),
  signal: controller.signal,
  onChange: (outcome, id, version) => console.log(`${outcome} ${id} v${version}`),
});
