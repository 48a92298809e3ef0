// What one call carries from middleware to handler, typed once for every read: `res.locals` and
// the OpenAPI middleware's `req.openapi`. Only per-call facts travel in `res.locals`; stores and
// settings reach routers as arguments (createApp).
import type { CallingKey } from "@oisr/contract";
import type { OpenApiRequestMetadata } from "express-openapi-validator/dist/framework/types.js";
import type { Account } from "../store/account.ts";
import type { PendingAccess } from "./access.ts";

declare global {
  namespace Express {
    interface Request {
      /**
       * Set by the OpenAPI middleware (express-openapi-validator) on every /v2 call it matched to
       * an operation of the spec (`openApiRoute` is its path template under the base path,
       * `/v2/orders/{identifier}`, `schema` the operation); absent elsewhere.
       */
      openapi?: OpenApiRequestMetadata;
    }

    interface Locals {
      /** Set first of all by traceMiddleware (or the SERVER span): the trace id answered in X-Trace-Id. */
      traceId: string;
      /**
       * Set by accessMiddleware for every /v2 call it lets through; handlers under /v2 only run
       * after it, so they may read it unconditionally. Probes, docs and /metrics have none.
       */
      account: Account;
      /**
       * The API key of the call, set by accessMiddleware with `account`, and also for a call it
       * refuses for the key's expiry or permission (the request log and the span name the key).
       * Its id goes into request records, events and logs; the secret never leaves the middleware.
       */
      apiKey: CallingKey;
      /**
       * Set by verifyBody when a JSON body was read: false when its text cannot hold a string
       * PostgreSQL refuses, which spares the body validator that walk.
       */
      bodyMayHoldUnstorable?: boolean;
      /**
       * Set by the access gate on a call whose access the statement storing it decides (http/access.ts);
       * `account` and `apiKey` are then set only once it is decided.
       */
      pendingAccess?: PendingAccess;
      /** Set by largeJsonBody: the body was large, so its heavy steps go on the CPU lane (http/cpu-lane.ts). */
      largeBody?: boolean;
    }
  }
}
