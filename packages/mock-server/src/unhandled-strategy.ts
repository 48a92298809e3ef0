// What msw does with a request no handler answers, under the option name each msw major reads:
// `onUnhandledRequest` (msw 2) and `onUnhandledFrame` (msw 3, which ignores the old name). The
// mock's peer range covers both, so a test's "error" safety net holds on either.

/** Both option names set to `strategy`, or nothing when none was given. */
export function unhandledStrategy<T>(strategy: T | undefined): {
  onUnhandledRequest?: T;
  onUnhandledFrame?: T;
} {
  return strategy === undefined ? {} : { onUnhandledRequest: strategy, onUnhandledFrame: strategy };
}
