// Per-account rate limits by scope (CONTRACT section 8), with X-RateLimit-* on every limited response.

import { type RateLimitScope, scopesFor } from "@oisr/domain";
import type { RequestHandler } from "express";
import type { RateLimitStore } from "../store/rate-limits.ts";
import { accountOf } from "./auth.ts";
import { HttpProblem } from "./problem.ts";

export function rateLimitMiddleware(
  store: RateLimitStore,
  defaults: Record<RateLimitScope, number>,
  onRefused: (scope: string) => void = () => {},
): RequestHandler {
  return async (req, res, next) => {
    const scopes = scopesFor(req.method, req.path);
    if (scopes.length === 0) return next();
    const account = accountOf(res);
    const decision = await store.take(
      account.id,
      scopes.map((scope) => ({ scope, limit: account.rateLimits?.[scope] ?? defaults[scope] })),
    );
    res.setHeader("X-RateLimit-Limit", String(decision.limit));
    res.setHeader("X-RateLimit-Remaining", String(decision.remaining));
    res.setHeader("X-RateLimit-Reset", String(decision.reset));
    if (!decision.allowed) {
      onRefused(decision.scope);
      const retryAfter = Math.max(1, decision.reset - Math.floor(Date.now() / 1000));
      throw new HttpProblem(
        429,
        "rate_limited",
        `Rate limit of ${decision.limit} calls per 60 s exceeded. Retry in ${retryAfter} s.`,
        {
          headers: { "Retry-After": String(retryAfter) },
        },
      );
    }
    next();
  };
}
