// CORS for browsers calling the API directly (the SDK runs there): they need the rate-limit and
// trace headers exposed to pace themselves and report errors (the contract's EXPOSED_HEADERS).
import { EXPOSED_HEADERS } from "@oisr/contract";
import cors from "cors";
import type { RequestHandler } from "express";

const browserCors = cors({ exposedHeaders: [...EXPOSED_HEADERS], maxAge: 600 });

/**
 * CORS headers only matter to a browser, and a browser always sends `Origin` on a cross-origin
 * call. A call with neither `Origin` nor an answer any shared cache may store (it carries
 * `Authorization`, RFC 9111 §3.5) gets no CORS headers: servers, ERPs and the benchmark's load
 * skip that work on every call. Unauthenticated answers (the spec, errors of calls without a
 * token) keep them, so a cached copy serves browsers too.
 */
export const corsMiddleware: RequestHandler = (req, res, next) => {
  if (req.headers.origin === undefined && req.headers.authorization !== undefined) return next();
  browserCors(req, res, next);
};
