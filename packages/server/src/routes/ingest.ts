// POST /ingest/*: validated (parameters by the OpenAPI middleware, the body by http/body-validation.ts),
// stored, answered 202 at once.
import { hash } from "node:crypto";
import { acceptedHeaders, idempotencyKeyReused, notFound } from "@oisr/contract";
import { itemCount } from "@oisr/domain";
import { type Request, type Response, Router } from "express";
import { accountOf } from "../http/auth.ts";
import type { RequestKind, RequestStore } from "../queue/index.ts";
import type { ResourceStore } from "../store/resources.ts";

/** A server return id: such a path can be checked at once; an RMA may name a return still queued. */
const RETURN_ID = /^ret_[0-9A-HJKMNP-TV-Z]{26}$/;

/** Each ingest endpoint and the request kind it queues. */
const ENDPOINTS: { path: string; kind: RequestKind }[] = [
  { path: "/ingest/orders", kind: "orders" },
  { path: "/ingest/inventory", kind: "inventory" },
  { path: "/ingest/shipments", kind: "shipments" },
  { path: "/ingest/returns", kind: "returns" },
  { path: "/ingest/returns/:return_id/dispositions", kind: "dispositions" },
];

export function ingestRoutes(store: RequestStore, resources: ResourceStore): Router {
  const router = Router();
  for (const endpoint of ENDPOINTS) {
    router.post(endpoint.path, async (req: Request, res: Response) => {
      const body = req.body as Record<string, unknown[]>;
      const bodyJson = JSON.stringify(body);
      const params = endpoint.kind === "dispositions" ? { return_id: String(req.params.return_id) } : null;
      if (
        params &&
        RETURN_ID.test(params.return_id) &&
        !(await resources.getReturn(accountOf(res).id, params.return_id))
      ) {
        throw notFound(`No return ${params.return_id} in this account.`);
      }
      const idempotencyKey = req.header("idempotency-key") ?? null;
      const outcome = await store.accept({
        accountId: accountOf(res).id,
        kind: endpoint.kind,
        endpoint: `POST ${req.path}`,
        params,
        bodyJson,
        // @oisr/contract's bodyFingerprint, computed synchronously (see there why).
        bodyHash: hash("sha256", bodyJson, "hex"),
        itemCount: itemCount(endpoint.kind, body as never),
        idempotencyKey,
        traceId: String(res.locals.traceId),
      });
      if (outcome.kind === "key_reused") throw idempotencyKeyReused();
      res.set(acceptedHeaders("/v2/requests", outcome.ack.request_id, outcome.kind === "replayed"));
      res.status(202).json(outcome.ack);
    });
  }
  return router;
}
