// The paths of the two retry calls (request-retry.ts), on their own: the rate-limit scopes and the
// permissions decide by them, and those modules are bundled into the SDK, which must not carry the
// rest of the retry rules.

/** Whether `POST path` (relative to /v2, as Express routes it) is one of the two retry calls. */
export function isRequestRetryCall(method: string, path: string): boolean {
  if (method.toUpperCase() !== "POST") return false;
  const p = path.toLowerCase().replace(/\/$/, "");
  return p === "/requests/retry" || /^\/requests\/[^/]+\/retry$/.test(p);
}
