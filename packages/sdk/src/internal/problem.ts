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
  switch (status) {
    case 400:
      return new ValidationError(status, problem, headers);
    case 401:
      return new AuthenticationError(status, problem, headers);
    case 403:
      return new PermissionError(status, problem, headers);
    case 404:
      return new NotFoundError(status, problem, headers);
    case 409:
    case 422:
      return new ConflictError(status, problem, headers);
    case 429:
      return new RateLimitError(status, problem, headers, serverDelayMs(headers, Date.now(), true));
    default:
      return new ApiError(status, problem, headers);
  }
}

function asProblem(body: unknown, response: Response): ProblemDetails {
  if (body !== null && typeof body === "object" && !Array.isArray(body)) {
    const p = body as Partial<ProblemDetails>;
    if (typeof p.status === "number" || typeof p.code === "string" || typeof p.title === "string")
      return body as ProblemDetails;
  }
  // Not problem+json (a proxy's HTML page, an empty 502…): synthesise one so callers see one shape.
  const text = typeof body === "string" && body.length > 0 ? body.slice(0, 200) : undefined;
  return {
    type: "about:blank",
    title: response.statusText || `HTTP ${response.status}`,
    status: response.status,
    ...(text ? { detail: text } : {}),
  };
}
