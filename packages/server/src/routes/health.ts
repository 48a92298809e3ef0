// Unauthenticated probes outside /v2.
import { Router } from "express";
import type { Database } from "../db/client.ts";

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
      res.status(503).setHeader("Retry-After", "5").json({ status: "unavailable" });
    }
  });
  return router;
}
