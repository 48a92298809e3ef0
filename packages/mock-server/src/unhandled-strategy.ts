// What msw does with a request no handler answers, under the option name each msw major reads:
// `onUnhandledRequest` (msw 2) and `onUnhandledFrame` (msw 3, which ignores the old name). The
// mock's peer range covers both, so a test's "error" safety net holds on either.

/**
 * The strategy type of the msw that is installed, whichever major it is: msw 3's options have
 * `onUnhandledFrame`, msw 2's only `onUnhandledRequest`. Written with `keyof` because an object
 * type without the property would still match `{ onUnhandledFrame?: infer S }` (as `unknown`).
 */
export type UnhandledStrategy<Options> = "onUnhandledFrame" extends keyof Options
  ? Options["onUnhandledFrame" & keyof Options]
  : "onUnhandledRequest" extends keyof Options
    ? Options["onUnhandledRequest" & keyof Options]
    : never;

/** Both option names set to `strategy`, or nothing when none was given. */
export function unhandledStrategy<T>(strategy: T | undefined): {
  onUnhandledRequest?: T;
  onUnhandledFrame?: T;
} {
  return strategy === undefined ? {} : { onUnhandledRequest: strategy, onUnhandledFrame: strategy };
}
