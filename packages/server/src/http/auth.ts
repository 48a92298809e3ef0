// Bearer authentication: the account comes from the token, never from the URL (accessMiddleware
// puts it in res.locals.account, typed in locals.ts).
import { HttpProblem } from "./problem.ts";

export { bearerToken } from "@oisr/contract";

/**
 * The 401 for a call without a live token; `hadToken` tells a bad token from a missing header.
 * `Connection: close`: Node closes the socket once the answer is written, so an unauthenticated
 * client cannot hold the connection open by trickling a body nobody will read.
 */
export function unauthorized(hadToken: boolean): HttpProblem {
  const detail = hadToken
    ? "The bearer token is unknown or revoked."
    : "Send `Authorization: Bearer <token>`.";
  return new HttpProblem(401, "unauthorized", detail, {
    headers: { "WWW-Authenticate": 'Bearer realm="oisr"', Connection: "close" },
  });
}
