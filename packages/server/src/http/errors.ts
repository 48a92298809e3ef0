// Maps every error to problem+json: ours, express's body parser's, and the OpenAPI validator's.
import {
  internalError,
  invalidJson,
  notFound as noSuchPath,
  payloadTooLarge,
  unsupportedMediaType,
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

const escapeSegment = (segment: string) => segment.replaceAll("~", "~0").replaceAll("/", "~1");
const unescapeSegment = (segment: string) => segment.replaceAll("~1", "/").replaceAll("~0", "~");

/**
 * For missing and unknown members the validator appends the member's name to an already escaped
 * path without escaping it, so "a/b" reads as two segments. Walk the body to find where the parent
 * ends and escape the rest as one member name (RFC 6901).
 */
function escapeMemberName(pointer: string, body: unknown): string {
  const segments = pointer.split("/").slice(1);
  let node = body;
  for (let i = 0; i < segments.length; i++) {
    const rest = segments.slice(i).join("/");
    const key = unescapeSegment(segments[i] as string);
    const container = node !== null && typeof node === "object" ? (node as object) : undefined;
    // The rest names a member present here (unknown member), or the next step leads nowhere (missing member).
    const namesMember = container !== undefined && !Array.isArray(container) && rest in container;
    if (!container || namesMember || !(key in container) || i === segments.length - 1) {
      return `/${[...segments.slice(0, i), escapeSegment(rest)].join("/")}`;
    }
    node = (node as Record<string, unknown>)[key];
  }
  return pointer;
}

const NAMES_A_MEMBER = /^(required|additionalProperties|unevaluatedProperties)\./;

/** "/body/orders/0/lines" -> "/orders/0/lines"; query and header paths keep their location prefix. */
function pointerOf(path: string | undefined, errorCode: string | undefined, body: unknown): string {
  if (!path) return "";
  const normalized = path.startsWith(".") ? `/${path.slice(1).replaceAll(".", "/")}` : path;
  if (!normalized.startsWith("/body")) return normalized;
  const pointer = normalized.slice("/body".length);
  return pointer !== "" && NAMES_A_MEMBER.test(errorCode ?? "") ? escapeMemberName(pointer, body) : pointer;
}

/** "type.openapi.validation" -> "type"; the validator's own "x-eov-type" is the JSON Schema "type". */
function codeOf(errorCode: string | undefined): string {
  return (errorCode ?? "invalid")
    .replace(/\.openapi\.(validation|requestValidation)$/, "")
    .replace(/^x-eov-/, "");
}

function fieldErrors(items: ValidatorErrorItem[] | undefined, body: unknown): FieldError[] {
  return (items ?? []).map((item) => ({
    pointer: pointerOf(item.path, item.errorCode, body),
    code: codeOf(item.errorCode),
    message: item.message ?? "is invalid",
  }));
}

export function toProblem(err: unknown, body?: unknown): HttpProblem {
  if (err instanceof HttpProblem) return err;
  const e = err as {
    status?: number;
    type?: string;
    errors?: ValidatorErrorItem[];
    headers?: Record<string, string>;
    message?: string;
  };
  if (e?.type === "entity.parse.failed") return invalidJson();
  if (e?.type === "entity.too.large" || e?.status === 413) return payloadTooLarge();
  if (e?.type === "encoding.unsupported" || e?.status === 415) return unsupportedMediaType();
  if (isDatabaseUnavailable(err)) {
    return new HttpProblem(503, "service_unavailable", "The database is unavailable; retry shortly.", {
      headers: { "Retry-After": "5" },
    });
  }
  switch (e?.status) {
    case 400:
      return new HttpProblem(400, "validation_failed", "The request does not match the API schema.", {
        errors: fieldErrors(e.errors, body),
      });
    case 404:
      return noSuchPath();
    case 405:
      return new HttpProblem(405, "method_not_allowed", e.message ?? "Method not allowed.", {
        headers: { Allow: (e.headers?.Allow ?? "").toUpperCase() },
      });
    default:
      return internalError();
  }
}

export function errorHandler(logger: Logger): ErrorRequestHandler {
  return (err, req, res, _next) => {
    const problem = toProblem(err, req.body);
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
