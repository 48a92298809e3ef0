// W3C trace context: reuse the caller's trace id when its traceparent is valid, else start one.
import { randomUUID } from "node:crypto";
import type { RequestHandler } from "express";

const TRACEPARENT = /^[\da-f]{2}-([\da-f]{32})-[\da-f]{16}-[\da-f]{2}$/;
const ZERO_TRACE = "0".repeat(32);

export function traceIdFrom(header: string | undefined): string {
  const match = header ? TRACEPARENT.exec(header.trim().toLowerCase()) : null;
  if (match?.[1] && match[1] !== ZERO_TRACE && !header?.startsWith("ff")) return match[1];
  // randomUUID draws from a cached entropy pool: far cheaper per call than randomBytes(16).
  return randomUUID().replaceAll("-", "");
}

export const traceMiddleware: RequestHandler = (req, res, next) => {
  const traceId = traceIdFrom(req.header("traceparent"));
  res.locals.traceId = traceId;
  res.setHeader("X-Trace-Id", traceId);
  next();
};
