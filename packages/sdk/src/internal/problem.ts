import {
  ApiError,
  AuthenticationError,
  ConflictError,
  NotFoundError,
  PermissionError,
  RateLimitError,
  ValidationError,
} from "../errors.ts";
import type { ProblemDetails } from "../types.ts";
import { serverDelayMs } from "./retry-policy.ts";

/** The error for a non-2xx response; `body` is what openapi-fetch parsed (JSON, or the raw text). */
export function errorFromResponse(response: Response, body: unknown): ApiError {
  const { status, headers } = response;
  const problem = asProblem(body, response);
  if (status === 429)
    return new RateLimitError(status, problem, headers, serverDelayMs(headers, Date.now(), true));
  const Class =
    (
      {
        400: ValidationError,
        401: AuthenticationError,
        403: PermissionError,
        404: NotFoundError,
        409: ConflictError,
        422: ConflictError,
      } as Record<number, typeof ApiError>
    )[status] ?? ApiError;
  return new Class(status, problem, headers);
}

function asProblem(body: unknown, response: Response): ProblemDetails {
  // An object (an array has none of these members) with a problem's status, code or title.
  const p = body as Partial<ProblemDetails> | null;
  if (typeof p === "object" && p && (typeof p.status === "number" || p.code || p.title))
    return p as ProblemDetails;
  // Not problem+json (a proxy's HTML page, an empty 502…): synthesise one so callers see one shape.
  const { status, statusText } = response;
  return {
    type: "about:blank",
    title: statusText || `HTTP ${status}`,
    status,
    ...(typeof body === "string" && body ? { detail: body.slice(0, 200) } : {}),
  };
}
