// Per-account rate limits by scope (docs/product.md §8): X-RateLimit-* on every limited response,
// and the 429 of a refused call, both as @oisr/contract states them.
import { type RateDecision, rateLimitedProblem, rateLimitHeaders } from "@oisr/contract";
import type { Response } from "express";
import { HttpProblem } from "./problem.ts";

/** Sets the headers; for a refused call, returns the problem to throw. */
export function applyRateLimit(
  res: Response,
  decision: RateDecision,
  nowMs = Date.now(),
): HttpProblem | null {
  const { headers, retryAfterSeconds } = rateLimitHeaders(decision, nowMs);
  for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
  if (retryAfterSeconds === undefined) return null;
  const problem = rateLimitedProblem(decision.limit, retryAfterSeconds);
  return new HttpProblem(problem.status, problem.code, problem.detail, { headers: problem.headers });
}
