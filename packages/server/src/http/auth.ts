// Bearer authentication: the account comes from the token, never from the URL.
import type { RequestHandler } from "express";
import type { Account, AccountStore } from "../store/accounts.ts";
import { HttpProblem } from "./problem.ts";

const BEARER = /^Bearer ([\x21-\x7e]+)$/;

export function accountOf(res: { locals: Record<string, unknown> }): Account {
  return res.locals.account as Account;
}

export function authMiddleware(accounts: AccountStore): RequestHandler {
  return async (req, res, next) => {
    const match = BEARER.exec(req.header("authorization") ?? "");
    const account = match?.[1] ? await accounts.authenticate(match[1]) : null;
    if (!account) {
      const detail = match
        ? "The bearer token is unknown or revoked."
        : "Send `Authorization: Bearer <token>`.";
      throw new HttpProblem(401, "unauthorized", detail, {
        headers: { "WWW-Authenticate": 'Bearer realm="oisr"' },
      });
    }
    res.locals.account = account;
    next();
  };
}
