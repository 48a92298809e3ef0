// Authentication, permission and rate limiting of every /v2 call, decided together by one batched
// statement (store/access.ts), refused in that order: 401, then 403, then 429 (decision 013). A
// refused call counts toward no limit and stores nothing.
//
// A small POST to an ingest endpoint whose body came with its headers has its access decided later,
// by the statement that stores it (queue/accept.ts, decision 018): one round trip from headers to
// 202 instead of two. Its body is
// then read, parsed and validated before its key is known, so only bodies of at most
// DEFER_MAX_BYTES (a one-order call is about 1 KB) are deferred: an unauthenticated client can make
// the server parse no more than that per call, as much as the headers' own limit allows. A deferred
// call that fails before it is stored (400, 413, 415…) is decided by `settle` before its error is
// answered, so the order of refusals and what is counted are those of a call decided up front.
import {
  apiKeyExpired,
  grantingPermissions,
  insufficientPermission,
  type Permission,
  permissionFor,
  scopesFor,
} from "@oisr/contract";
import type { ErrorRequestHandler, Request, RequestHandler, Response } from "express";
import type { DeferredAccess } from "../queue/accept.ts";
import type { Access, AccessCall } from "../store/access.ts";
import type { AccountStore } from "../store/accounts.ts";
import { hashToken } from "../store/api-keys.ts";
import { bearerToken, CLOSE, unauthorized } from "./auth.ts";
import { applyRateLimit } from "./rate-limit.ts";

/** The largest body (by Content-Length) whose access is decided by the statement that stores it. */
export const DEFER_MAX_BYTES = 64 * 1024;

/** The ingest endpoints whose calls are stored as they are (dispositions first look their return up). */
const DEFERRABLE = new Set(["/ingest/orders", "/ingest/inventory", "/ingest/shipments", "/ingest/returns"]);

/** A call whose access is still to be decided (res.locals.pendingAccess). */
export interface PendingAccess {
  call: AccessCall;
  needed: Permission | null;
  settled: boolean;
}

function deferrable(req: Request): boolean {
  if (req.method !== "POST") return false;
  const length = req.headers["content-length"];
  if (length === undefined || !(Number(length) <= DEFER_MAX_BYTES)) return false;
  return DEFERRABLE.has(req.path.toLowerCase().replace(/\/$/, ""));
}

export interface AccessGate {
  /** First on /v2: decides the call's access, or defers it (see the header). */
  middleware: RequestHandler;
  /** Last on /v2: decides a deferred call that failed before it was stored, then answers its error. */
  settle: ErrorRequestHandler;
  /** For the storing handler: the deferred access of this call, if any. */
  deferred(res: Response): DeferredAccess | undefined;
  /** For the storing handler: applies the access its statement decided (throws a refusal). */
  decided(req: Request, res: Response, access: Access | undefined): void;
}

export function accessGate(
  accounts: AccountStore,
  onRefused: (scope: string) => void = () => {},
): AccessGate {
  /** Sets what a decided call carries (res.locals), or throws its refusal. */
  function admit(req: Request, res: Response, access: Access, needed: Permission | null): void {
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
  }

  return {
    async middleware(req, res, next) {
      const token = bearerToken(req.header("authorization"));
      if (!token) throw unauthorized(false);
      const needed = permissionFor(req.method, req.path);
      const call: AccessCall = {
        hash: hashToken(token),
        scopes: scopesFor(req.method, req.path),
        permissions: needed ? grantingPermissions(needed) : [],
        nowMs: Date.now(),
      };
      if (deferrable(req)) {
        // Only a body already here is deferred: a small body comes with its headers, and after one
        // turn of the event loop the parser has read it. A body still on its way (a slow or
        // trickling client) is decided up front, so an unknown secret is refused and its
        // connection closed at once instead of being held until the body ends.
        // A body in the headers' own packet is parsed by the same parser run that emitted the call,
        // so it is complete by the next microtask: that wait spares the usual call the turn of the
        // loop (a promise and an immediate, ~1 % of a one-order call's CPU). A body in a later
        // packet gets the turn, as before.
        if (!req.complete) await Promise.resolve();
        if (!req.complete) await new Promise<void>((resolve) => setImmediate(resolve));
        if (req.complete) {
          res.locals.pendingAccess = { call, needed, settled: false };
          return next();
        }
      }
      admit(req, res, await accounts.authorizeCall(call), needed);
      next();
    },

    async settle(err, req, res, next) {
      const pending = res.locals.pendingAccess;
      if (!pending || pending.settled) return next(err);
      pending.settled = true;
      let access: Access;
      try {
        access = await accounts.authorizeCall(pending.call);
      } catch {
        // The database is away: the call's own error (often the same) is the answer.
        return next(err);
      }
      admit(req, res, access, pending.needed);
      next(err);
    },

    deferred(res) {
      const pending = res.locals.pendingAccess;
      return pending && !pending.settled ? { call: pending.call, via: accounts.statement } : undefined;
    },

    decided(req, res, access) {
      const pending = res.locals.pendingAccess;
      if (!pending || pending.settled) return;
      if (!access) throw new Error("a deferred call came back without its access");
      pending.settled = true;
      accounts.seen(access, pending.call.nowMs);
      admit(req, res, access, pending.needed);
    },
  };
}
