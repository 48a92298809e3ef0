// Authentication, permission and rate limiting of every /v2 call, decided together by one batched
// statement (store/access.ts), refused in that order: 401, then 403, then 429 (decision 013). A
// refused call counts toward no limit and stores nothing.
import {
  apiKeyExpired,
  grantingPermissions,
  insufficientPermission,
  type Permission,
  permissionFor,
  scopesFor,
} from "@oisr/contract";
import type { RequestHandler } from "express";
import type { AccountStore } from "../store/accounts.ts";
import { bearerToken, CLOSE, unauthorized } from "./auth.ts";
import { applyRateLimit } from "./rate-limit.ts";

export function accessMiddleware(
  accounts: AccountStore,
  onRefused: (scope: string) => void = () => {},
): RequestHandler {
  return async (req, res, next) => {
    const token = bearerToken(req.header("authorization"));
    if (!token) throw unauthorized(false);
    const needed = permissionFor(req.method, req.path);
    const access = await accounts.authorize(
      token,
      scopesFor(req.method, req.path),
      needed ? grantingPermissions(needed) : [],
    );
    if (!access.account) throw unauthorized(true);
    const { key } = access;
    // Set before any refusal below, so the request log and the span name the key of a refused call.
    res.locals.apiKey = { id: key.id, permissions: key.permissions, expiresAtMs: key.expiresAtMs };
    switch (access.verdict) {
      case "expired":
        throw apiKeyExpired(key.id, key.expiresAtMs as number, false, CLOSE);
      case "secret_expired":
        throw apiKeyExpired(key.id, key.secretExpiresAtMs as number, true, CLOSE);
      case "forbidden":
        // A permission was needed, or the statement would not have refused the call.
        throw insufficientPermission(key.id, needed as Permission, `${req.method} /v2${req.path}`);
    }
    res.locals.account = access.account;
    if (access.decision) {
      const refused = applyRateLimit(res, access.decision);
      if (refused) {
        onRefused(access.decision.scope);
        throw refused;
      }
    }
    next();
  };
}
