// createMock: the stateful mock as msw request handlers, plus its store and test controls.
import { http } from "msw";
import { createControls } from "./controls.ts";
import { MockCore } from "./core.ts";
import type { MockOptions } from "./options.ts";
import type { Mock } from "./public-types.ts";

export type { Mock };

/**
 * A stateful OISR API mock: the server's business rules, validation, errors, rate limits and
 * request lifecycle, in memory.
 *
 * @example
 * const mock = createMock({ baseUrl: "http://localhost:4010/v2" });
 * const server = setupServer(...mock.handlers); // from msw/node
 */
export function createMock(options: MockOptions = {}): Mock {
  const core = new MockCore(options);
  const { controls, store } = createControls(core);
  const handler = http.all(
    ({ request }) => core.locate(new URL(request.url)) !== null,
    async ({ request }) => core.handle(request),
  );
  return {
    handlers: [handler],
    store,
    controls,
    baseUrl: core.options.baseUrl.href.replace(/\/$/, ""),
    handle: (request) => core.handle(request),
  };
}
