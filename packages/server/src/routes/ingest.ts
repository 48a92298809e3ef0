// POST /ingest/*: validated (parameters by the OpenAPI middleware, the body by http/body-validation.ts),
// stored, answered 202 at once.
import { hash } from "node:crypto";
import { type IngestAccepted, idempotencyKeyReused, ingestReturnNotFound } from "@oisr/contract";
import { type IngestBodies, itemCount } from "@oisr/domain";
import { type Request, type Response, Router } from "express";
import { sendAccepted } from "../http/accepted-reply.ts";
import type { AccessGate } from "../http/access.ts";
import { onLane } from "../http/cpu-lane.ts";
import { stringifyOnLane } from "../http/json-in-steps.ts";
import { operation } from "../http/typed.ts";
import type { RequestKind, RequestStore } from "../queue/index.ts";
import type { ResourceStore } from "../store/resources.ts";

/** A server return id: such a path can be checked at once; an RMA may name a return still queued. */
const RETURN_ID = /^ret_[0-9A-HJKMNP-TV-Z]{26}$/;

/**
 * The one ingest handler, for the calls of one kind. Each mount below hands it to the spec's
 * operation, so the typecheck proves that operation's body is the domain's body of that kind.
 */
type IngestHandler<Kind extends RequestKind> = (
  req: Request<{ return_id?: string }, IngestAccepted, IngestBodies[Kind]>,
  res: Response<IngestAccepted>,
) => Promise<void>;

export function ingestRoutes(
  store: RequestStore,
  resources: ResourceStore,
  access: Pick<AccessGate, "deferred" | "decided">,
): Router {
  function accept<Kind extends RequestKind>(kind: Kind): IngestHandler<Kind> {
    return async (req, res) => {
      // A small call's access is decided by the statement that stores it (http/access.ts).
      const deferred = access.deferred(res);
      // A large body is serialised and hashed on the CPU lane, its own turns of the event loop.
      const large = res.locals.largeBody === true;
      const bodyJson = large ? await stringifyOnLane(req.body) : JSON.stringify(req.body);
      const idempotencyKey = req.header("idempotency-key") ?? null;
      // @oisr/contract's bodyFingerprint, computed synchronously (see there why); only a key compares it.
      const bodyHash =
        idempotencyKey === null
          ? null
          : large
            ? await onLane(() => hash("sha256", bodyJson, "hex"))
            : hash("sha256", bodyJson, "hex");
      const returnId = req.params.return_id;
      const params = returnId === undefined ? null : { return_id: returnId };
      if (
        !deferred &&
        returnId !== undefined &&
        RETURN_ID.test(returnId) &&
        !(await resources.getReturn(res.locals.account.id, returnId))
      ) {
        throw ingestReturnNotFound(returnId);
      }
      const outcome = await store.accept({
        accountId: deferred ? null : res.locals.account.id,
        kind,
        endpoint: `POST ${req.path}`,
        params,
        bodyJson,
        bodyHash,
        itemCount: itemCount(kind, req.body),
        idempotencyKey,
        apiKeyId: deferred ? null : res.locals.apiKey.id,
        traceId: res.locals.traceId,
        ...(deferred ? { access: deferred } : {}),
      });
      // Throws the call's 401, 403 or 429 (nothing was stored or counted then).
      if (deferred) access.decided(req, res, outcome.access);
      if (outcome.kind === "refused") throw new Error("a refused call was let through");
      if (outcome.kind === "key_reused") throw idempotencyKeyReused();
      sendAccepted(res, outcome.ack, outcome.kind === "replayed");
    };
  }

  const router = Router();
  router.post("/ingest/orders", operation("ingestOrders", accept("orders")));
  router.post("/ingest/inventory", operation("ingestInventory", accept("inventory")));
  router.post("/ingest/shipments", operation("ingestShipments", accept("shipments")));
  router.post("/ingest/returns", operation("ingestReturns", accept("returns")));
  router.post(
    "/ingest/returns/:return_id/dispositions",
    operation("ingestDispositions", accept("dispositions")),
  );
  return router;
}
