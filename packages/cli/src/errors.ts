// One readable line per error, without stacks for the errors a user can act on.
import { ApiError, OisrError } from "@oisr/sdk";
import { UsageError } from "./sources/open.ts";

export function describeError(error: unknown): string {
  if (error instanceof ApiError) {
    const detail = error.problem.detail ?? error.problem.title;
    const fields = (error.problem.errors ?? [])
      .map((e) => `\n  ${e.pointer || "(body)"}: ${e.message}`)
      .join("");
    return `${error.status} ${error.code ?? ""}: ${detail}${error.traceId ? ` (trace ${error.traceId})` : ""}${fields}`;
  }
  if (error instanceof OisrError || error instanceof UsageError) return error.message;
  if (error instanceof Error && "code" in error && typeof error.code === "string") return error.message;
  return error instanceof Error ? (error.stack ?? error.message) : String(error);
}
