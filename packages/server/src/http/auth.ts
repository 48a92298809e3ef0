// Bearer authentication: the account comes from the token, never from the URL (accessMiddleware
// puts it in res.locals.account, and the key in res.locals.apiKey, typed in locals.ts).
import { unauthorized as unauthorizedProblem } from "@oisr/contract";
import type { HttpProblem } from "./problem.ts";

export { bearerToken } from "@oisr/contract";

/**
 * `Connection: close` on every 401: Node closes the socket once the answer is written, so an
 * unauthenticated client cannot hold the connection open by trickling a body nobody will read.
 */
export const CLOSE: Readonly<Record<string, string>> = { Connection: "close" };

/** The 401 for a call without a live token; `hadToken` tells a bad token from a missing header. */
export function unauthorized(hadToken: boolean): HttpProblem {
  return unauthorizedProblem(hadToken, { ...CLOSE });
}
