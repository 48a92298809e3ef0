// Bearer authentication: the account comes from the token, never from the URL (accessMiddleware
// puts it in res.locals.account, typed in locals.ts).
import { unauthorized as unauthorizedProblem } from "@oisr/contract";
import type { HttpProblem } from "./problem.ts";

export { bearerToken } from "@oisr/contract";

/**
 * The 401 for a call without a live token; `hadToken` tells a bad token from a missing header.
 * `Connection: close`: Node closes the socket once the answer is written, so an unauthenticated
 * client cannot hold the connection open by trickling a body nobody will read.
 */
export function unauthorized(hadToken: boolean): HttpProblem {
  return unauthorizedProblem(hadToken, { Connection: "close" });
}
