// Unauthenticated probes outside /v2.

import { methodNotAllowed, SERVICE_UNAVAILABLE_DETAIL, serviceUnavailable } from "@oisr/contract";
import { Router } from "express";
import type { Database } from "../db/client.ts";
import type { ReadSource, ReplicaStatus } from "../db/read-source.ts";
import { sendProblem } from "../http/problem.ts";
import type { OperationReply } from "../http/typed.ts";

/**
 * /readyz needs the primary. A read replica (OISR_READ_DATABASE_URL) is reported, never required:
 * while it is down the feeds and lists are read from the primary (db/read-source.ts), and every
 * process shares the one replica, so failing readiness for it would take every process out of
 * the load balancer at once and turn a replica outage into a full one (decision 021).
 */
export function healthRoutes(database: Database, reads?: ReadSource): Router {
  const router = Router();
  // Outside /v2 no OpenAPI middleware runs: only the answers are typed from the spec.
  router.get("/healthz", (_req, res: OperationReply<"getHealth">) => {
    res.json({ status: "ok" });
  });
  router.get("/readyz", async (_req, res: OperationReply<"getReadiness">) => {
    try {
      await database.ping();
      if (!reads?.replica) {
        res.json({ status: "ready" });
        return;
      }
      const replica: ReplicaStatus = await reads.replica.status().catch(() => ({ reachable: false }));
      res.json({
        status: "ready",
        read_replica: replica.reachable
          ? { status: "reachable", lag_seconds: replica.lagSeconds ?? 0 }
          : { status: "unreachable" },
      });
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
