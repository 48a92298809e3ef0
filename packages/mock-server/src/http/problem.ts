// RFC 9457 problem details with the server's codes, titles and details (decision 001).
import { PROBLEM_TITLES, problemErrors, validationFailedDetail } from "@oisr/contract";

export interface FieldError {
  pointer: string;
  code: string;
  message: string;
}

export { PROBLEM_TITLES } from "@oisr/contract";

/** Thrown anywhere in request handling; turned into a problem response by the pipeline. */
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

export function problemBody(problem: HttpProblem, traceId: string): Record<string, unknown> {
  return {
    type: `https://oisr.dev/problems/${problem.code}`,
    title: PROBLEM_TITLES[problem.code] ?? "Error",
    status: problem.status,
    detail: problem.message,
    trace_id: traceId,
    code: problem.code,
    ...(problem.errors ? problemErrors(problem.errors, problem.errorsTotal) : {}),
  };
}

export const notFound = (detail = "No such resource or path.") => new HttpProblem(404, "not_found", detail);

export const validationFailed = (errors: FieldError[], total = errors.length) =>
  new HttpProblem(400, "validation_failed", validationFailedDetail(total), { errors, errorsTotal: total });
