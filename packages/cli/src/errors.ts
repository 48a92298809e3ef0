// One readable line per error, without stacks for the errors a user can act on. A refused token and
// an unreachable API are named as such: they are the two mistakes a first run usually makes.
import { ApiError, ConnectionError, OisrError } from "@oisr/sdk";
import { UsageError } from "./sources/open.ts";

/** The API could not be reached at all (refused connection, unknown host, reset…). */
export class CannotReachError extends Error {
  override name = "CannotReachError";
  readonly baseUrl: string;
  constructor(baseUrl: string, cause: unknown) {
    super(`cannot reach ${baseUrl}: ${rootCause(cause)}`, { cause });
    this.baseUrl = baseUrl;
  }
}

/** The innermost message of an error chain: "connect ECONNREFUSED 127.0.0.1:8080", not "fetch failed". */
function rootCause(error: unknown): string {
  let current = error;
  while (current instanceof Error && current.cause instanceof Error) current = current.cause;
  if (current instanceof AggregateError && current.errors[0] instanceof Error) current = current.errors[0];
  if (!(current instanceof Error)) return String(current);
  const code = (current as { code?: unknown }).code;
  return typeof code === "string" && !current.message.includes(code)
    ? `${code} ${current.message}`
    : current.message;
}

/** A network failure of fetch itself (not an HTTP error status, not an abort). */
export function isNetworkFailure(error: unknown): boolean {
  return error instanceof TypeError && error.message === "fetch failed";
}

export function describeError(error: unknown, context: { baseUrl?: string | undefined } = {}): string {
  if (error instanceof ApiError && error.status === 401) {
    const detail = error.problem.detail ?? error.problem.title ?? "";
    return (
      `authentication failed: the token was refused (401${error.code ? ` ${error.code}` : ""}${detail ? `: ${detail}` : ""})` +
      `${error.traceId ? ` (trace ${error.traceId})` : ""}. Check --token or OISR_TOKEN.`
    );
  }
  if (error instanceof ApiError) {
    const detail = error.problem.detail ?? error.problem.title;
    const fields = (error.problem.errors ?? [])
      .map((e) => `\n  ${e.pointer || "(body)"}: ${e.message}`)
      .join("");
    return `${error.status} ${error.code ?? ""}: ${detail}${error.traceId ? ` (trace ${error.traceId})` : ""}${fields}`;
  }
  if (error instanceof ConnectionError || isNetworkFailure(error)) {
    const attempts =
      error instanceof ConnectionError ? /\(attempt (\d+)\)$/.exec(error.message)?.[1] : undefined;
    const where = context.baseUrl ?? "the API";
    const cause = (error as Error).cause ?? error;
    return `cannot reach ${where}: ${rootCause(cause)}${attempts && attempts !== "1" ? ` (${attempts} attempts)` : ""}`;
  }
  if (error instanceof CannotReachError || error instanceof OisrError || error instanceof UsageError)
    return error.message;
  if (error instanceof Error && "code" in error && typeof error.code === "string") return error.message;
  return error instanceof Error ? (error.stack ?? error.message) : String(error);
}
