// Problem details on express: the error, its body and its texts are @oisr/contract's, shared with
// the mock; this module only puts them on the response.
import { type HttpProblem, problemBody } from "@oisr/contract";
import type { Response } from "express";

export { type FieldError, HttpProblem } from "@oisr/contract";

export function sendProblem(res: Response, problem: HttpProblem): void {
  res.status(problem.status);
  for (const [name, value] of Object.entries(problem.headers)) res.setHeader(name, value);
  res.type("application/problem+json");
  res.send(JSON.stringify(problemBody(problem, res.locals.traceId)));
}
