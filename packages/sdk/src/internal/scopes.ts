/** Rate-limit scopes of the API (contract section 8). */
export type RateLimitScope =
  | "ingest"
  | "ingest_inventory"
  | "orders_read"
  | "requests_read"
  | "returns_read"
  | "webhooks";

/**
 * The scopes a call counts toward, from its method and its path relative to the base URL
 * (`/ingest/orders`, `/orders/ord_1`…). `POST /ingest/inventory` counts toward two; the stricter
 * one is listed first. Unlimited calls (health, spec) have none.
 */
export function scopesFor(method: string, relativePath: string): RateLimitScope[] {
  const m = method.toUpperCase();
  const segment = /^\/([^/?#]+)/.exec(relativePath)?.[1];
  switch (segment) {
    case "ingest":
      if (m !== "POST") return [];
      return /^\/ingest\/inventory\/?$/.test(relativePath) ? ["ingest_inventory", "ingest"] : ["ingest"];
    case "orders":
      return m === "GET" ? ["orders_read"] : [];
    case "requests":
      return m === "GET" ? ["requests_read"] : [];
    case "returns":
    case "inventory":
      return m === "GET" ? ["returns_read"] : [];
    case "webhook_subscriptions":
      return ["webhooks"];
    default:
      return [];
  }
}

/** Whether the call is a `POST /ingest/*`, the only calls that get an automatic `Idempotency-Key`. */
export function isIngest(method: string, relativePath: string): boolean {
  return method.toUpperCase() === "POST" && relativePath.startsWith("/ingest/");
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
