// Unauthenticated probes outside /v2.
import { Router } from "express";
import type { Database } from "../db/client.ts";
import { HttpProblem, sendProblem } from "../http/problem.ts";

export function healthRoutes(database: Database): Router {
  const router = Router();
  router.get("/healthz", (_req, res) => {
    res.json({ status: "ok" });
  });
  router.get("/readyz", async (_req, res) => {
    try {
      await database.ping();
      res.json({ status: "ready" });
    } catch {
      sendProblem(
        res,
        new HttpProblem(503, "service_unavailable", "The database is unreachable or not migrated.", {
          headers: { "Retry-After": "5" },
        }),
      );
    }
  });
  // The spec answers other methods on the probes with 405, like everywhere else.
  router.all(["/healthz", "/readyz"], () => {
    throw new HttpProblem(405, "method_not_allowed", "Only GET is supported here.", {
      headers: { Allow: "GET" },
    });
  });
  return router;
}
