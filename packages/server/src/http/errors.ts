// Maps every error to problem+json: ours, express's body parser's, and the OpenAPI validator's.
import type { ErrorRequestHandler, RequestHandler } from "express";
import type { Logger } from "pino";
import { type FieldError, HttpProblem, sendProblem } from "./problem.ts";

interface ValidatorErrorItem {
  path?: string;
  message?: string;
  errorCode?: string;
}

/** "/body/orders/0/lines" -> "/orders/0/lines"; query and header paths keep their location prefix. */
function pointerOf(path: string | undefined): string {
  if (!path) return "";
  const normalized = path.startsWith(".") ? `/${path.slice(1).replaceAll(".", "/")}` : path;
  return normalized.startsWith("/body") ? normalized.slice("/body".length) : normalized;
}

function fieldErrors(items: ValidatorErrorItem[] | undefined): FieldError[] {
  return (items ?? []).map((item) => ({
    pointer: pointerOf(item.path),
    code: (item.errorCode ?? "invalid").replace(/\.openapi\.(validation|requestValidation)$/, ""),
    message: item.message ?? "is invalid",
  }));
}

const DB_UNAVAILABLE = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "EPIPE",
  "CONNECT_TIMEOUT",
  "CONNECTION_CLOSED",
  "CONNECTION_ENDED",
  "CONNECTION_DESTROYED",
  "57P01",
  "57P02",
  "57P03",
  "08000",
  "08003",
  "08006",
  "08001",
  "08004",
  // "database … is not currently accepting connections" (ALTER DATABASE … ALLOW_CONNECTIONS false).
  "55000",
]);

export function isDatabaseUnavailable(err: unknown): boolean {
  const e = err as { code?: string; cause?: { code?: string }; errno?: string };
  return (
    DB_UNAVAILABLE.has(String(e?.code)) ||
    DB_UNAVAILABLE.has(String(e?.cause?.code)) ||
    DB_UNAVAILABLE.has(String(e?.errno))
  );
}

export function toProblem(err: unknown): HttpProblem {
  if (err instanceof HttpProblem) return err;
  const e = err as {
    status?: number;
    type?: string;
    errors?: ValidatorErrorItem[];
    headers?: Record<string, string>;
    message?: string;
  };
  if (e?.type === "entity.parse.failed")
    return new HttpProblem(400, "invalid_json", "The request body is not valid JSON.");
  if (e?.type === "entity.too.large" || e?.status === 413) {
    return new HttpProblem(413, "payload_too_large", "The request body exceeds 5 MiB.");
  }
  if (e?.type === "encoding.unsupported" || e?.status === 415) {
    return new HttpProblem(415, "unsupported_media_type", "Send the body as application/json.");
  }
  if (isDatabaseUnavailable(err)) {
    return new HttpProblem(503, "service_unavailable", "The database is unavailable; retry shortly.", {
      headers: { "Retry-After": "5" },
    });
  }
  switch (e?.status) {
    case 400:
      return new HttpProblem(400, "validation_failed", "The request does not match the API schema.", {
        errors: fieldErrors(e.errors),
      });
    case 404:
      return new HttpProblem(404, "not_found", "No such resource or path.");
    case 405:
      return new HttpProblem(405, "method_not_allowed", e.message ?? "Method not allowed.", {
        headers: { Allow: (e.headers?.Allow ?? "").toUpperCase() },
      });
    default:
      return new HttpProblem(500, "internal_error", "An unexpected error occurred.");
  }
}

export function errorHandler(logger: Logger): ErrorRequestHandler {
  return (err, req, res, _next) => {
    const problem = toProblem(err);
    if (problem.status >= 500) {
      logger.error(
        { err, traceId: res.locals.traceId, method: req.method, path: req.path },
        "request failed",
      );
    }
    if (res.headersSent) return;
    sendProblem(res, problem);
  };
}

export const notFound: RequestHandler = () => {
  throw new HttpProblem(404, "not_found", "No such resource or path.");
};
