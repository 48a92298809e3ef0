// The published mock (@oisr/mock-server) as contract-test targets, so the one suite shows where it
// behaves like the server: in-process through msw (fetch intercepted in this process) and as the
// standalone HTTP server the `oisr-mock` bin runs. Imported by name: the built package, as users get it.
import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";
import { createMock, type Mock, type MockOptions, mockOptionsFromEnv } from "@oisr/mock-server";
import { startMockServer } from "@oisr/mock-server/node";
import type { System, Target } from "./system.ts";

/**
 * The server target's settings (webhook receivers are on 127.0.0.1), and tokens as strict as the
 * server's: only those `createAccount` made are accepted.
 */
function optionsFrom(env: Record<string, string>): MockOptions {
  const fromEnv = mockOptionsFromEnv({
    OISR_WEBHOOK_ALLOW_PRIVATE_NETWORKS: "1",
    OISR_RETRY_BASE_MS: "50",
    ...env,
  });
  return { ...fromEnv, acceptAnyToken: false };
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

// msw as the mock package resolves it (its handlers only work with that same copy), loaded on first use.
type MswServer = { listen(o: object): void; close(): void; resetHandlers(...h: unknown[]): void };
let msw: Promise<{ setupServer(): MswServer }> | undefined;
function loadMsw() {
  const fromMock = createRequire(import.meta.resolve("@oisr/mock-server"));
  msw ??= import(pathToFileURL(fromMock.resolve("msw/node")).href);
  return msw;
}

// One msw interceptor for every in-process mock of this process (msw allows one at a time), each
// mock on its own origin: systems may overlap (a test starting its own next to the file's), and
// interception ends when the last one closes, so other targets in this worker reach the network.
const open = new Set<Mock>();
let server: MswServer | undefined;
let next = 0;

async function intercept(mock: Mock): Promise<() => Promise<void>> {
  open.add(mock);
  if (!server) {
    server = (await loadMsw()).setupServer();
    server.listen({ onUnhandledFrame: "bypass" });
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
      return systemOf(mock, mock.baseUrl, await intercept(mock));
    },
  };
}
