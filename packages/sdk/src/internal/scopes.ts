// The rate-limit scopes a call counts toward are the contract's (the server's and the mock's too):
// `scopesFor` takes the path relative to the base URL (`/ingest/orders`, `/orders/ord_1`…) and
// lists the stricter scope first, the order the throttle waits in.
import { isRequestRetryCall } from "@oisr/contract/retry-paths";

export { type RateLimitScope, scopesFor } from "@oisr/contract/rate-limits";

/**
 * Whether the call makes requests: a `POST /ingest/*` or a retry of requests (`POST
 * /requests/{id}/retry`, `POST /requests/retry`), the only calls that get an automatic
 * `Idempotency-Key`.
 */
export function isIngest(method: string, relativePath: string): boolean {
  return (
    (method.toUpperCase() === "POST" && relativePath.startsWith("/ingest/")) ||
    isRequestRetryCall(method, relativePath)
  );
}

/**
 * The request's path relative to the client's base path (`/v2`). A URL outside the base path
 * (a raw call with another `baseUrl`) falls back to the part after a `/v2` segment, if any.
 */
export function relativePath(url: string, basePath: string): string {
  const { pathname } = new URL(url);
  const base = basePath.replace(/\/+$/, "");
  if (base && (pathname === base || pathname.startsWith(`${base}/`)))
    return pathname.slice(base.length) || "/";
  const v2 = pathname.indexOf("/v2/");
  return v2 >= 0 ? pathname.slice(v2 + 3) : pathname;
}
