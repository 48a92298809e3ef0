// The published mock (@oisr/mock-server) as contract-test targets, so the one suite shows where it
// behaves like the server: in-process through msw (fetch intercepted in this process) and as the
// standalone HTTP server the `oisr-mock` bin runs. Imported from source, like the server.
import { setupServer } from "../../mock-server/node_modules/msw/lib/node/index.js";
import { createMock, type Mock, type MockOptions, mockOptionsFromEnv } from "../../mock-server/src/index.ts";
import { startMockServer } from "../../mock-server/src/node/index.ts";
import type { System, Target } from "./targets.ts";

/** The server target's defaults that matter to the mock (webhook receivers are on 127.0.0.1). */
function optionsFrom(env: Record<string, string>): MockOptions {
  const options = mockOptionsFromEnv({ OISR_WEBHOOK_ALLOW_PRIVATE_NETWORKS: "1", OISR_RETRY_BASE_MS: "50", ...env });
  return options;
}

function systemOf(mock: Mock, baseUrl: string, close: () => Promise<void>): System {
  return {
    baseUrl,
    origin: new URL(baseUrl).origin,
    async createAccount(name = "contract-test") {
      return mock.controls.createAccount(name);
    },
    async revokeToken(token) {
      mock.controls.revokeToken(token);
    },
    close,
  };
}

// One msw interceptor for every in-process mock of this process, each mock on its own origin:
// systems may overlap (a test starting its own next to the file's), and interception is removed
// when the last one closes so that other targets in the same worker talk to the real network.
const open = new Set<Mock>();
let server: ReturnType<typeof setupServer> | undefined;
let next = 0;

function intercept(mock: Mock): () => Promise<void> {
  open.add(mock);
  if (!server) {
    server = setupServer();
    server.listen({ onUnhandledRequest: "bypass" });
  }
  server.resetHandlers(...[...open].flatMap((m) => m.handlers));
  return async () => {
    mock.controls.reset();
    open.delete(mock);
    if (open.size > 0) server?.resetHandlers(...[...open].flatMap((m) => m.handlers));
    else {
      server?.close();
      server = undefined;
    }
  };
}

export function mockTarget(name: string): Target {
  const standalone = name.includes("standalone");
  return {
    name,
    async start(env = {}) {
      const options = optionsFrom(env);
      if (standalone) {
        const running = await startMockServer({ ...options, port: 0 });
        return systemOf(running.mock, running.url, () => running.close());
      }
      const mock = createMock({ ...options, baseUrl: `http://mock-${++next}.oisr.test/v2` });
      return systemOf(mock, mock.baseUrl, intercept(mock));
    },
  };
}
