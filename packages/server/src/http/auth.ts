// Bearer authentication: the account comes from the token, never from the URL.
import type { Account } from "../store/accounts.ts";

export { bearerToken } from "@oisr/contract";

import { HttpProblem } from "./problem.ts";

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

export function accountOf(res: { locals: Record<string, unknown> }): Account {
  return res.locals.account as Account;
}
