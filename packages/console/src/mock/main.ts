// The console on the mock (mock.html, served by `oisr-mock --console`): @oisr/mock-server's MSW
// worker answers this page's /v2 calls in the browser, seeded with demo data, and the unchanged
// console runs against it. This entry is a separate build (dist/mock); the server serves only
// dist/app, which carries none of the mock.
import { MOCK_TOKEN } from "@oisr/mock-server";
import { setupMockWorker } from "@oisr/mock-server/browser";
import { startConsole } from "../start.tsx";
import { receiver } from "./receiver.ts";
import { seed } from "./seed.ts";

const api = setupMockWorker({
  baseUrl: new URL("/v2", location.origin).href,
  webhooks: { fetch: receiver, retrySchedule: [5_000, 60_000, 300_000] },
});
await api.start({
  // The worker script sits beside this page; its scope is the console's path.
  serviceWorker: { url: new URL("mockServiceWorker.js", location.href).pathname, options: { scope: "./" } },
  onUnhandledRequest: "bypass",
  quiet: true,
});
await seed(api, MOCK_TOKEN);
startConsole({
  note: "Mock mode: the API runs in this tab (any oisr_ key works; reload to start over)",
  keyHint: MOCK_TOKEN,
});
