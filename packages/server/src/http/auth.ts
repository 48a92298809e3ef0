// Bearer authentication: the account comes from the token, never from the URL.
import type { Account } from "../store/accounts.ts";
import { HttpProblem } from "./problem.ts";

const BEARER = /^Bearer ([\x21-\x7e]+)$/;

/** The token of a well-formed `Authorization: Bearer` header, or undefined. */
export function bearerToken(authorization: string | undefined): string | undefined {
  return BEARER.exec(authorization ?? "")?.[1];
}

/** The 401 for a call without a live token; `hadToken` tells a bad token from a missing header. */
export function unauthorized(hadToken: boolean): HttpProblem {
  const detail = hadToken
    ? "The bearer token is unknown or revoked."
    : "Send `Authorization: Bearer <token>`.";
  return new HttpProblem(401, "unauthorized", detail, {
    headers: { "WWW-Authenticate": 'Bearer realm="oisr"' },
  });
}

export function accountOf(res: { locals: Record<string, unknown> }): Account {
  return res.locals.account as Account;
}
