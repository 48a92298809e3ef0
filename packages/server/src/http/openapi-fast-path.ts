// express-openapi-validator took ~9 % of the API process's CPU on a one-order ingest call (profile of
// bench/ingest-ack.ts, about 50 µs a call): its middlewares chain through a promise each, match the
// path against every route, build a parameter mutator and run Ajv over headers and query, all to
// approve a call whose only parameters are optional headers. The usual ingest call is approved here
// instead, by the same rules read from the same document; any call this check is not sure of (a
// query string, another content type, a header that does not fit, no body) goes through the
// validator, which decides it and words its errors. Only calls the validator would let through
// skip it, so no answer changes (test/openapi-fast-path.test.ts compares both on a table of calls).
import type { NextFunction, Request, RequestHandler, Response } from "express";
import { Router } from "express";
import type { OpenApiRequestMetadata } from "express-openapi-validator/dist/framework/types.js";
import type { OpenApiDocument } from "../spec.ts";

/** Routes with no path parameter and a JSON body: the calls worth the shortcut. */
const FAST_PATHS = ["/ingest/orders", "/ingest/inventory", "/ingest/shipments", "/ingest/returns"];

/** The content types taken as they are: the validator and body-parser read both as JSON. */
const JSON_TYPE = /^application\/json(?:\s*;\s*charset=(?:"utf-8"|utf-8))?$/i;

type Schema = { type?: string; minLength?: number; maxLength?: number; pattern?: string };
type Parameter = { $ref?: string; name?: string; in?: string; required?: boolean; schema?: Schema };
type Operation = {
  operationId?: string;
  parameters?: Parameter[];
  requestBody?: { content?: Record<string, unknown> };
};

/** A check of one optional string header, or null when the parameter is of another kind. */
function headerCheck(parameter: Parameter): ((headers: Request["headers"]) => boolean) | null {
  const { schema } = parameter;
  if (parameter.in !== "header" || parameter.required || !parameter.name || schema?.type !== "string")
    return null;
  const known = new Set(["type", "minLength", "maxLength", "pattern"]);
  if (Object.keys(schema).some((k) => !known.has(k))) return null;
  const name = parameter.name.toLowerCase();
  const min = schema.minLength ?? 0;
  const max = schema.maxLength ?? Number.POSITIVE_INFINITY;
  // Ajv compiles `pattern` with the "u" flag; lengths count code points, as Ajv's do.
  const pattern = schema.pattern === undefined ? null : new RegExp(schema.pattern, "u");
  return (headers) => {
    const value = headers[name];
    if (value === undefined) return true;
    if (typeof value !== "string") return false;
    const length = [...value].length;
    return length >= min && length <= max && (pattern === null || pattern.test(value));
  };
}

/** What the fast path knows of one route: the metadata it sets and the header checks it makes. */
interface FastRoute {
  meta: OpenApiRequestMetadata;
  headers: ((headers: Request["headers"]) => boolean)[];
}

function fastRoutes(spec: OpenApiDocument): Map<string, FastRoute> {
  const doc = spec as unknown as {
    servers?: { url: string }[];
    paths?: Record<string, { post?: Operation }>;
    components?: { parameters?: Record<string, Parameter> };
  };
  const base = new URL(doc.servers?.[0]?.url ?? "http://localhost/").pathname.replace(/\/$/, "");
  const routes = new Map<string, FastRoute>();
  for (const path of FAST_PATHS) {
    const operation = doc.paths?.[path]?.post;
    if (!operation?.operationId || !operation.requestBody?.content?.["application/json"]) continue;
    const checks = (operation.parameters ?? []).map((p) => {
      const name = /^#\/components\/parameters\/(.+)$/.exec(p.$ref ?? "")?.[1];
      const resolved = name === undefined ? p : doc.components?.parameters?.[name];
      return resolved ? headerCheck(resolved) : null;
    });
    if (checks.some((c) => c === null)) continue;
    routes.set(path, {
      meta: {
        expressRoute: `${base}${path}`,
        openApiRoute: `${base}${path}`,
        pathParams: {},
        schema: operation as OpenApiRequestMetadata["schema"],
        // Only the response validator reads it, and it is off wherever this path is used.
        serial: -1,
      },
      headers: checks as FastRoute["headers"],
    });
  }
  return routes;
}

/**
 * `validator` (express-openapi-validator's middlewares), except for an ingest call it would let
 * through, which is approved here and given the same `req.openapi`. Not for a server validating its
 * responses (tests): the validator hooks the response of the calls it sees.
 */
export function openApiFastPath(spec: OpenApiDocument, validator: RequestHandler[]): RequestHandler {
  const routes = fastRoutes(spec);
  const slow = Router().use(validator);
  return (req: Request, res: Response, next: NextFunction) => {
    const route = req.method === "POST" ? routes.get(req.path) : undefined;
    if (
      route === undefined ||
      req.url.includes("?") ||
      req.body === undefined ||
      !JSON_TYPE.test(req.headers["content-type"] ?? "") ||
      !route.headers.every((check) => check(req.headers))
    ) {
      slow(req, res, next);
      return;
    }
    req.openapi = { ...route.meta, pathParams: {} };
    next();
  };
}
