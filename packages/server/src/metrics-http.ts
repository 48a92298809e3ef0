// Records every HTTP answer by route template (never by raw path: ids would explode the series)
// and serves GET /metrics.
import { subscribe } from "node:diagnostics_channel";
import { type RequestHandler, Router } from "express";
import type { Metrics } from "./metrics.ts";

export type { Metrics } from "./metrics.ts";

/** A route template's label and the paths it matches, as Express routes them (any case, one trailing slash). */
type Template = { label: string; pattern: RegExp };

/**
 * The spec's path templates under its base path, most literal first (`/x/{id}/deliveries` before
 * `/x/{id}/{other}` would be), for the calls answered before the OpenAPI middleware matched them:
 * 401s and 429s of the access check, 413s and 415s of the body limits.
 */
export function routeTemplates(spec: { servers?: { url: string }[]; paths?: object }): Template[] {
  const base = new URL(spec.servers?.[0]?.url ?? "http://localhost/", "http://localhost").pathname.replace(
    /\/$/,
    "",
  );
  return Object.keys(spec.paths ?? {})
    .map((path) => ({
      label: `${base}${path}`,
      params: (path.match(/\{/g) ?? []).length,
      pattern: new RegExp(
        `^${`${base}${path}`
          .split(/\{[^}]+\}/)
          .map((literal) => literal.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"))
          .join("[^/]+")}/?$`,
        "i",
      ),
    }))
    .sort((a, b) => a.params - b.params)
    .map(({ label, pattern }) => ({ label, pattern }));
}

function routeOf(req: Parameters<RequestHandler>[0], templates: readonly Template[]): string {
  const openapi = (req as { openapi?: { openApiRoute?: string } }).openapi;
  if (openapi?.openApiRoute) return openapi.openApiRoute;
  const route = (req as { route?: { path?: string } }).route?.path;
  if (route) return `${req.baseUrl}${route}`;
  const path = req.originalUrl.split("?")[0] ?? "";
  return templates.find((t) => t.pattern.test(path))?.label ?? "unmatched";
}

/** What the middleware stamps on a call it counts: the process's metrics and when the call began. */
const STARTED = Symbol("oisr.metrics.started");
type Stamped = Parameters<RequestHandler>[0] & {
  [STARTED]?: { metrics: Metrics; templates: readonly Template[]; at: number };
};

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
  const route = routeOf(request, started.templates);
  const method = request.method;
  started.metrics.httpRequests.inc({ route, method, status: String(response.statusCode) });
  started.metrics.httpDuration.observe({ route, method }, (performance.now() - started.at) / 1000);
}

let subscribed = false;

/** `templates`: the API's routes (routeTemplates), to label calls answered before routing. */
export function metricsMiddleware(metrics: Metrics, templates: readonly Template[] = []): RequestHandler {
  if (!subscribed) {
    subscribe("http.server.response.finish", onResponseFinish);
    subscribed = true;
  }
  return (req, _res, next) => {
    (req as Stamped)[STARTED] = { metrics, templates, at: performance.now() };
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
