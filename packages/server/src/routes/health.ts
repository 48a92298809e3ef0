// Unauthenticated probes outside /v2.

import { methodNotAllowed, SERVICE_UNAVAILABLE_DETAIL, serviceUnavailable } from "@oisr/contract";
import { Router } from "express";
import type { Database } from "../db/client.ts";
import { sendProblem } from "../http/problem.ts";
import type { OperationReply } from "../http/typed.ts";

export function healthRoutes(database: Database): Router {
  const router = Router();
  // Outside /v2 no OpenAPI middleware runs: only the answers are typed from the spec.
  router.get("/healthz", (_req, res: OperationReply<"getHealth">) => {
    res.json({ status: "ok" });
  });
  router.get("/readyz", async (_req, res: OperationReply<"getReadiness">) => {
    try {
      await database.ping();
      res.json({ status: "ready" });
    } catch {
      sendProblem(res, serviceUnavailable(SERVICE_UNAVAILABLE_DETAIL.notReady, 5));
    }
  });
  // The spec answers other methods on the probes with 405, like everywhere else.
  router.all(["/healthz", "/readyz"], (req) => {
    throw methodNotAllowed(req.method, ["GET"]);
  });
  return router;
}
