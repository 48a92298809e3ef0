// Maps every error to problem+json: ours, express's body parser's, and the OpenAPI validator's.
import {
  internalError,
  invalidJson,
  invalidJsonAt,
  methodNotAllowed,
  notFound as noSuchPath,
  payloadTooLarge,
  SERVICE_UNAVAILABLE_DETAIL,
  serviceUnavailable,
  unsupportedMediaType,
  unversionedPathNotFound,
} from "@oisr/contract";
import type { ErrorRequestHandler, RequestHandler } from "express";
import type { Logger } from "pino";
import { isDatabaseUnavailable } from "../db/errors.ts";
import { type FieldError, HttpProblem, sendProblem } from "./problem.ts";

interface ValidatorErrorItem {
  path?: string;
  message?: string;
  errorCode?: string;
}

/**
 * The validator checks parameters and headers only (bodies go to the bounded BodyValidator of
 * @oisr/contract, whose pointers are RFC 6901 from the start: http/body-validation.ts), so its paths
 * need no repair: "/query/limit" stays as it is, a stray "/body" prefix is dropped.
 */
function pointerOf(path: string | undefined): string {
  if (!path) return "";
  const normalized = path.startsWith(".") ? `/${path.slice(1).replaceAll(".", "/")}` : path;
  return normalized.startsWith("/body") ? normalized.slice("/body".length) : normalized;
}

/** "type.openapi.validation" -> "type"; the validator's own "x-eov-type" is the JSON Schema "type". */
function codeOf(errorCode: string | undefined): string {
  return (errorCode ?? "invalid")
    .replace(/\.openapi\.(validation|requestValidation)$/, "")
    .replace(/^x-eov-/, "");
}

function fieldErrors(items: ValidatorErrorItem[] | undefined): FieldError[] {
  return (items ?? []).map((item) => ({
    pointer: pointerOf(item.path),
    code: codeOf(item.errorCode),
    message: item.message ?? "is invalid",
  }));
}

/** `method` is the call's, for the 405 text (the validator's error does not carry it). */
export function toProblem(err: unknown, method = ""): HttpProblem {
  if (err instanceof HttpProblem) return err;
  const e = err as {
    status?: number;
    type?: string;
    errors?: ValidatorErrorItem[];
    headers?: Record<string, string>;
    message?: string;
    body?: unknown;
  };
  // body-parser's SyntaxError carries the text it could not parse: the detail says where it broke.
  if (e?.type === "entity.parse.failed")
    return typeof e.body === "string" ? invalidJsonAt(e.body) : invalidJson();
  if (e?.type === "entity.too.large" || e?.status === 413) return payloadTooLarge();
  if (e?.type === "encoding.unsupported" || e?.status === 415) return unsupportedMediaType();
  if (isDatabaseUnavailable(err)) {
    return serviceUnavailable(SERVICE_UNAVAILABLE_DETAIL.database, 5);
  }
  switch (e?.status) {
    case 400:
      return new HttpProblem(400, "validation_failed", "The request does not match the API schema.", {
        errors: fieldErrors(e.errors),
      });
    case 404:
      return noSuchPath();
    case 405:
      // The validator names the path's methods in Allow; the text is ours (the same as the mock's).
      return methodNotAllowed(
        method,
        (e.headers?.Allow ?? "")
          .split(",")
          .map((m) => m.trim())
          .filter(Boolean),
      );
    default:
      return internalError();
  }
}

export function errorHandler(logger: Logger): ErrorRequestHandler {
  return (err, req, res, _next) => {
    const problem = toProblem(err, req.method);
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
  throw noSuchPath();
};

/**
 * The API app's last handler: a path under /v2 is an unknown API path; any other (`GET /orders`
 * at the origin) says that API paths start with /v2. The service routes (/healthz, /readyz,
 * /docs, /metrics) are mounted before it.
 */
export const apiNotFound: RequestHandler = (req) => {
  throw req.path === "/v2" || req.path.startsWith("/v2/") ? noSuchPath() : unversionedPathNotFound();
};
