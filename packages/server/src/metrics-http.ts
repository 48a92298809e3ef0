// Records every HTTP answer by route template (never by raw path: ids would explode the series)
// and serves GET /metrics.
import { subscribe } from "node:diagnostics_channel";
import { type RequestHandler, Router } from "express";
import type { Metrics } from "./metrics.ts";

export type { Metrics } from "./metrics.ts";

function routeOf(req: Parameters<RequestHandler>[0]): string {
  const openapi = (req as { openapi?: { openApiRoute?: string } }).openapi;
  if (openapi?.openApiRoute) return openapi.openApiRoute;
  const route = (req as { route?: { path?: string } }).route?.path;
  return route ? `${req.baseUrl}${route}` : "unmatched";
}

/** What the middleware stamps on a call it counts: the process's metrics and when the call began. */
const STARTED = Symbol("oisr.metrics.started");
type Stamped = Parameters<RequestHandler>[0] & { [STARTED]?: { metrics: Metrics; at: number } };

/**
 * Counts the call when Node has sent its answer, from Node's own `http.server.response.finish`
 * channel, which the server publishes at the moment a response emits `finish`. A `finish` listener
 * on every response did the same at ~25 µs of CPU per call in this server (ingest-ack, a fifth of
 * the whole call's; a bare http server shows no such cost, and why this one does is not known).
 * One subscriber serves every server in the process; it counts only calls that a metrics
 * middleware stamped, into that middleware's metrics.
 */
function onResponseFinish(message: unknown): void {
  const { request, response } = message as { request: Stamped; response: { statusCode: number } };
  const started = request[STARTED];
  if (!started) return;
  const route = routeOf(request);
  const method = request.method;
  started.metrics.httpRequests.inc({ route, method, status: String(response.statusCode) });
  started.metrics.httpDuration.observe({ route, method }, (performance.now() - started.at) / 1000);
}

let subscribed = false;

export function metricsMiddleware(metrics: Metrics): RequestHandler {
  if (!subscribed) {
    subscribe("http.server.response.finish", onResponseFinish);
    subscribed = true;
  }
  return (req, _res, next) => {
    (req as Stamped)[STARTED] = { metrics, at: performance.now() };
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
