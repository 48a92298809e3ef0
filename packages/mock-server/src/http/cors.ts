// The server's CORS policy for /v2 (express `cors` with exposed headers): any origin, and the
// contract's EXPOSED_HEADERS readable by browser code.
import { EXPOSED_HEADERS } from "@oisr/contract";

const exposed = EXPOSED_HEADERS.join(",");

export function corsHeaders(): Record<string, string> {
  return { "Access-Control-Allow-Origin": "*", "Access-Control-Expose-Headers": exposed };
}

/** The answer to a preflight (`OPTIONS`), whatever the path under the base URL. */
export function preflight(request: Request): Response {
  const headers = new Headers({
    "Access-Control-Allow-Origin": "*",
    "Access-Control-Allow-Methods": "GET,HEAD,PUT,PATCH,POST,DELETE",
    "Access-Control-Max-Age": "600",
  });
  const requested = request.headers.get("access-control-request-headers");
  if (requested) headers.set("Access-Control-Allow-Headers", requested);
  headers.set("Vary", "Access-Control-Request-Headers");
  headers.set("Content-Length", "0");
  return new Response(null, { status: 204, headers });
}
