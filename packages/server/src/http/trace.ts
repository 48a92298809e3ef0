// W3C trace context: reuse the caller's trace id when its traceparent is valid, else start one.
// With tracing on (telemetry/), the call is also a SERVER span, and that span's trace id is the
// one answered: one trace id per call, whichever way it is looked at.
import { randomUUID } from "node:crypto";
import type { RequestHandler } from "express";
import { traceHttpCall } from "../telemetry/http-span.ts";
import { parseTraceparent } from "../telemetry/traceparent.ts";
import { activeTracer } from "../telemetry/tracing.ts";

export function traceIdFrom(header: string | undefined): string {
  // randomUUID draws from a cached entropy pool: far cheaper per call than randomBytes(16).
  return parseTraceparent(header)?.traceId ?? randomUUID().replaceAll("-", "");
}

export const traceMiddleware: RequestHandler = (req, res, next) => {
  const header = req.header("traceparent");
  const tracer = activeTracer();
  if (tracer) return traceHttpCall(tracer, req, res, next, header);
  const traceId = traceIdFrom(header);
  res.locals.traceId = traceId;
  res.setHeader("X-Trace-Id", traceId);
  next();
};
