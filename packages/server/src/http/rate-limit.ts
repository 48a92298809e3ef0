// Per-account rate limits by scope (CONTRACT section 8): X-RateLimit-* on every limited response,
// and the 429 of a refused call.
import type { Response } from "express";
import type { RateDecision } from "../store/rate-limits.ts";
import { HttpProblem } from "./problem.ts";

export function setRateLimitHeaders(res: Response, decision: RateDecision): void {
  res.setHeader("X-RateLimit-Limit", String(decision.limit));
  res.setHeader("X-RateLimit-Remaining", String(decision.remaining));
  res.setHeader("X-RateLimit-Reset", String(decision.reset));
}

export function rateLimited(decision: RateDecision, nowMs = Date.now()): HttpProblem {
  const retryAfter = Math.max(1, decision.reset - Math.floor(nowMs / 1000));
  return new HttpProblem(
    429,
    "rate_limited",
    `Rate limit of ${decision.limit} calls per 60 s exceeded. Retry in ${retryAfter} s.`,
    { headers: { "Retry-After": String(retryAfter) } },
  );
}
