// @oisr/mock-server/node: the mock under msw's `setupServer` (tests in Node: vitest, jest,
// node:test), and the standalone HTTP server behind the `oisr-mock` bin.

import type { SharedOptions } from "msw";
import { type SetupServer, setupServer } from "msw/node";
import { createMock } from "../mock.ts";
import type { MockOptions } from "../options.ts";
import type { Mock } from "../public-types.ts";
import { type UnhandledStrategy, unhandledStrategy } from "../unhandled-strategy.ts";

export type { StandaloneOptions, StandaloneServer } from "./standalone.ts";
export { startMockServer } from "./standalone.ts";

/**
 * msw's listen options; the unhandled-request strategy is accepted under either name
 * (`onUnhandledRequest`, msw 2's; `onUnhandledFrame`, msw 3's) and given to whichever msw runs.
 * Typed from the installed msw, so these types hold with msw 2 and with msw 3.
 */
export type MockListenOptions = Partial<SharedOptions> & {
  onUnhandledRequest?: UnhandledStrategy<SharedOptions>;
  onUnhandledFrame?: UnhandledStrategy<SharedOptions>;
};

export interface MockServer extends Mock {
  /** The msw server, for `server.use(...)` overrides and life-cycle events. */
  server: SetupServer;
  /** Starts intercepting (msw's `server.listen`). */
  listen(options?: MockListenOptions): void;
  /** Stops intercepting (msw's `server.close`). */
  close(): void;
}

/**
 * The mock, intercepting `fetch` and `http` in this Node process through msw.
 *
 * @example
 * const api = setupMockServer();
 * beforeAll(() => api.listen());
 * afterEach(() => api.controls.reset());
 * afterAll(() => api.close());
 */
export function setupMockServer(options: MockOptions = {}): MockServer {
  const mock = createMock(options);
  const server = setupServer(...mock.handlers);
  return {
    ...mock,
    server,
    listen: (listenOptions = {}) => {
      const { onUnhandledRequest, ...rest } = listenOptions;
      // msw 3 silently ignores the old name; honour it rather than let a test lose its safety net.
      server.listen({
        ...rest,
        // msw 2 reads `onUnhandledRequest`, msw 3 `onUnhandledFrame` (and ignores the old name):
        // give each the strategy under the name it reads.
        ...unhandledStrategy(onUnhandledRequest ?? rest.onUnhandledFrame),
      });
    },
    close: () => server.close(),
  };
}
