// RFC 9457 problem details, the only error body the API sends.
import { PROBLEM_TITLES, problemErrors } from "@oisr/contract";
import type { Response } from "express";

export interface FieldError {
  pointer: string;
  code: string;
  message: string;
}

export class HttpProblem extends Error {
  readonly status: number;
  readonly code: string;
  readonly errors: FieldError[] | undefined;
  /** How many errors were found; the body lists at most 100 of `errors` (problemErrors). */
  readonly errorsTotal: number | undefined;
  readonly headers: Record<string, string>;

  constructor(
    status: number,
    code: string,
    detail: string,
    options: { errors?: FieldError[]; errorsTotal?: number; headers?: Record<string, string> } = {},
  ) {
    super(detail);
    this.status = status;
    this.code = code;
    this.errors = options.errors;
    this.errorsTotal = options.errorsTotal;
    this.headers = options.headers ?? {};
  }
}

export function sendProblem(res: Response, problem: HttpProblem): void {
  const traceId = String(res.locals.traceId ?? "");
  res.status(problem.status);
  for (const [name, value] of Object.entries(problem.headers)) res.setHeader(name, value);
  res.type("application/problem+json");
  res.send(
    JSON.stringify({
      type: `https://oisr.dev/problems/${problem.code}`,
      title: PROBLEM_TITLES[problem.code] ?? "Error",
      status: problem.status,
      detail: problem.message,
      trace_id: traceId,
      code: problem.code,
      ...(problem.errors ? problemErrors(problem.errors, problem.errorsTotal) : {}),
    }),
  );
}
