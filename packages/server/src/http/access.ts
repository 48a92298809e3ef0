// Authentication and rate limiting of every /v2 call, decided together by one batched statement
// (store/access.ts). An unauthenticated call counts toward no limit.
import { scopesFor } from "@oisr/contract";
import type { RequestHandler } from "express";
import type { AccountStore } from "../store/accounts.ts";
import { bearerToken, unauthorized } from "./auth.ts";
import { applyRateLimit } from "./rate-limit.ts";

export function accessMiddleware(
  accounts: AccountStore,
  onRefused: (scope: string) => void = () => {},
): RequestHandler {
  return async (req, res, next) => {
    const token = bearerToken(req.header("authorization"));
    if (!token) throw unauthorized(false);
    const { account, decision } = await accounts.authorize(token, scopesFor(req.method, req.path));
    if (!account) throw unauthorized(true);
    res.locals.account = account;
    if (decision) {
      const refused = applyRateLimit(res, decision);
      if (refused) {
        onRefused(decision.scope);
        throw refused;
      }
    }
    next();
  };
}
