// @oisr/mock-server/browser: the mock in a browser through msw's service worker. Copy msw's
// worker script into your public folder once: `npx msw init public/`.

import { type SetupWorker, type StartOptions, setupWorker } from "msw/browser";
import { createMock } from "../mock.ts";
import type { MockOptions } from "../options.ts";
import type { Mock } from "../public-types.ts";
import { type UnhandledStrategy, unhandledStrategy } from "../unhandled-strategy.ts";

export interface MockWorker extends Mock {
  worker: SetupWorker;
  /**
   * Registers the service worker and starts intercepting (msw's `worker.start`);
   * the unhandled-request strategy is accepted under either name (`onUnhandledRequest`, msw 2's;
   * `onUnhandledFrame`, msw 3's), typed from the installed msw.
   */
  start(
    options?: StartOptions & {
      onUnhandledRequest?: UnhandledStrategy<StartOptions>;
      onUnhandledFrame?: UnhandledStrategy<StartOptions>;
    },
  ): Promise<unknown>;
  stop(): void;
}

/**
 * The mock, answering this page's requests to `baseUrl` through msw's service worker.
 *
 * @example
 * const api = setupMockWorker({ baseUrl: "/api/v2" });
 * await api.start({ onUnhandledFrame: "bypass" });
 */
export function setupMockWorker(options: MockOptions = {}): MockWorker {
  const mock = createMock(options);
  const worker = setupWorker(...mock.handlers);
  return {
    ...mock,
    worker,
    start: (startOptions = {}) => {
      const { onUnhandledRequest, ...rest } = startOptions;
      return worker.start({
        ...rest,
        // msw 2 reads `onUnhandledRequest`, msw 3 `onUnhandledFrame` (and ignores the old name):
        // give each the strategy under the name it reads.
        ...unhandledStrategy(onUnhandledRequest ?? rest.onUnhandledFrame),
      });
    },
    stop: () => worker.stop(),
  };
}
