// The SERVER span of an HTTP call (tracing on only): named after the route template once routing
// has matched it (`POST /v2/ingest/orders`), child of the caller's traceparent, and active for the
// rest of the call so the accept span below it finds it.
import {
  context,
  createTraceState,
  ROOT_CONTEXT,
  type Span,
  SpanKind,
  SpanStatusCode,
  type Tracer,
  trace,
} from "@opentelemetry/api";
import {
  ATTR_ERROR_TYPE,
  ATTR_HTTP_REQUEST_METHOD,
  ATTR_HTTP_RESPONSE_STATUS_CODE,
  ATTR_HTTP_ROUTE,
  ATTR_URL_PATH,
  ATTR_URL_SCHEME,
  ATTR_USER_AGENT_ORIGINAL,
} from "@opentelemetry/semantic-conventions";
import type { NextFunction, Request, Response } from "express";
import { OISR_API_KEY_ID } from "./attributes.ts";
import { parseTraceparent } from "./traceparent.ts";
import { startRootSpan } from "./tracing.ts";

/**
 * The matched route template. Documented /v2 operations: the OpenAPI validator's match, known
 * even when the call fails validation before reaching its handler. Others: express's own route.
 */
function routeOf(req: Request): string | undefined {
  const openapi = (req as { openapi?: { expressRoute?: string } }).openapi;
  if (openapi?.expressRoute) return openapi.expressRoute;
  return req.route ? `${req.baseUrl}${String(req.route.path)}` : undefined;
}

function end(span: Span, req: Request, res: Response): void {
  const route = routeOf(req);
  if (route) {
    span.updateName(`${req.method} ${route}`);
    span.setAttribute(ATTR_HTTP_ROUTE, route);
  }
  // Known once accessMiddleware identified the key, also for a call it refused for the key's expiry or permission.
  const keyId = (res.locals as Partial<Response["locals"]>).apiKey?.id;
  if (keyId) span.setAttribute(OISR_API_KEY_ID, keyId);
  if (!res.writableFinished) {
    // The connection closed before the answer was sent.
    span.setAttribute(ATTR_ERROR_TYPE, "aborted");
    span.setStatus({ code: SpanStatusCode.ERROR, message: "connection closed before the response" });
  } else {
    span.setAttribute(ATTR_HTTP_RESPONSE_STATUS_CODE, res.statusCode);
    // 4xx is the caller's doing: an error of the call, not of this server (HTTP semantic conventions).
    if (res.statusCode >= 500) {
      span.setAttribute(ATTR_ERROR_TYPE, String(res.statusCode));
      span.setStatus({ code: SpanStatusCode.ERROR });
    }
  }
  span.end();
}

/** Starts the call's span, sets X-Trace-Id to its trace id and runs the rest of the call inside it. */
export function traceHttpCall(
  tracer: Tracer,
  req: Request,
  res: Response,
  next: NextFunction,
  traceparent: string | undefined,
): void {
  const options = {
    kind: SpanKind.SERVER,
    attributes: {
      [ATTR_HTTP_REQUEST_METHOD]: req.method,
      [ATTR_URL_PATH]: req.path,
      [ATTR_URL_SCHEME]: req.protocol,
      ...(req.headers["user-agent"] ? { [ATTR_USER_AGENT_ORIGINAL]: req.headers["user-agent"] } : {}),
    },
  };
  const caller = parseTraceparent(traceparent);
  let span: Span;
  if (caller?.spanId) {
    const tracestate = req.header("tracestate");
    const parent = trace.setSpanContext(ROOT_CONTEXT, {
      traceId: caller.traceId,
      spanId: caller.spanId,
      traceFlags: caller.traceFlags & 1,
      isRemote: true,
      ...(tracestate ? { traceState: createTraceState(tracestate) } : {}),
    });
    span = tracer.startSpan(req.method, options, parent);
  } else if (caller) {
    // A usable trace id without a usable parent id: the trace keeps the caller's id.
    span = startRootSpan(tracer, req.method, options, caller.traceId);
  } else {
    span = tracer.startSpan(req.method, { ...options, root: true });
  }
  const { traceId } = span.spanContext();
  res.locals.traceId = traceId;
  res.setHeader("X-Trace-Id", traceId);
  res.once("close", () => end(span, req, res));

  const active = trace.setSpan(ROOT_CONTEXT, span);
  // Body parsing resumes from the socket's 'data'/'end' events, outside this call's async context:
  // bound emitters run their listeners inside it, so the handlers after the body parser see the span.
  context.bind(active, req);
  context.bind(active, res);
  context.with(active, next);
}
