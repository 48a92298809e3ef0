// Records every HTTP answer by route template (never by raw path: ids would explode the series)
// and serves GET /metrics.
import { type RequestHandler, Router } from "express";
import type { Metrics } from "./metrics.ts";

export type { Metrics } from "./metrics.ts";

function routeOf(req: Parameters<RequestHandler>[0]): string {
  const openapi = (req as { openapi?: { openApiRoute?: string } }).openapi;
  if (openapi?.openApiRoute) return openapi.openApiRoute;
  const route = (req as { route?: { path?: string } }).route?.path;
  return route ? `${req.baseUrl}${route}` : "unmatched";
}

export function metricsMiddleware(metrics: Metrics): RequestHandler {
  return (req, res, next) => {
    const end = metrics.httpDuration.startTimer();
    res.once("finish", () => {
      const route = routeOf(req);
      metrics.httpRequests.inc({ route, method: req.method, status: String(res.statusCode) });
      end({ route, method: req.method });
    });
    next();
  };
}

export function metricsRoutes(metrics: Metrics): Router {
  const router = Router();
  router.get("/metrics", async (_req, res) => {
    res.type(metrics.registry.contentType).send(await metrics.registry.metrics());
  });
  return router;
}
