// POST /requests/{request_id}/retry and POST /requests/retry: a failed or dead request accepted
// again as a new request with its kind, return and body, linked both ways; counted toward the
// ingest scopes of the calls they repeat. The rules (which statuses, the 409, the bulk bounds and
// charge) are @oisr/contract's, as on the server (docs/decisions/014).
import {
  acceptedHeaders,
  bodyFingerprint,
  bulkRetryCharge,
  bulkRetrySelection,
  HttpProblem,
  idempotencyDecision,
  idempotencyKeyLive,
  idempotencyKeyReused,
  ingestAccepted,
  isRetryable,
  RETRY_FINGERPRINT,
  rateLimitedProblem,
  rateLimitHeaders,
  requestNotFound,
  requestNotRetryable,
  retryEndpoint,
  retryRequestsResult,
  retryScopes,
} from "@oisr/contract";
import type { RateLimitScope } from "@oisr/contract/rate-limits";
import { uuidv7 } from "../ids.ts";
import type { Account, RequestEntry } from "../store/account.ts";
import { basePath, type RouteBase, type RouteHandler, type RouteTable, retained } from "./context.ts";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Counts the call toward `charges`, all or none; returns the X-RateLimit-* headers, or throws the
 * 429. Rate limits switched off (`rateLimits: false`) count nothing and send no headers.
 */
function charge(ctx: RouteBase, charges: { scope: RateLimitScope; count: number }[]): Record<string, string> {
  const limits = ctx.runtime.options.rateLimits;
  if (limits === false) return {};
  const now = ctx.runtime.clock.now();
  const decision = ctx.account.rateWindows.charge(
    charges.map((c) => ({ ...c, limit: ctx.account.rateLimits?.[c.scope] ?? limits[c.scope] })),
    now,
  );
  const answer = rateLimitHeaders(decision, now);
  if (answer.retryAfterSeconds !== undefined) {
    const problem = rateLimitedProblem(decision.limit, answer.retryAfterSeconds);
    throw new HttpProblem(problem.status, problem.code, problem.detail, {
      headers: { ...answer.headers, ...problem.headers },
    });
  }
  return answer.headers;
}

/** A problem answered with the call's rate-limit headers, as the server's are. */
function withHeaders(problem: HttpProblem, headers: Record<string, string>): HttpProblem {
  Object.assign(problem.headers, headers);
  return problem;
}

/** Accepts `original` again as a new request, linked both ways; its id. */
function resend(
  ctx: RouteBase,
  account: Account,
  original: RequestEntry,
  idempotencyKey: string | null,
): string {
  const { runtime } = ctx;
  const now = runtime.clock.now();
  const entry: RequestEntry = {
    seq: runtime.store.nextRequestSeq(),
    id: uuidv7(now),
    kind: original.kind,
    status: "pending",
    traceId: ctx.traceId,
    idempotencyKey,
    apiKeyId: ctx.apiKey.id,
    returnId: original.returnId,
    // A copy: the original keeps its body whatever the new request's processing does.
    body: structuredClone(original.body),
    itemCount: original.itemCount,
    acceptedAt: now,
    startedAt: null,
    completedAt: null,
    attempts: 0,
    result: null,
    errors: [],
    error: null,
    scenario: runtime.scenarios.takeFor(account, original.kind),
    dueAt: now + runtime.options.processingDelayMs,
    retryOf: original.id,
  };
  original.retriedBy = entry.id;
  runtime.processor.accept(account, entry);
  return entry.id;
}

const retryRequest: RouteHandler<"retryRequest"> = (ctx) => {
  const { runtime, account } = ctx;
  const id = ctx.params.request_id.toLowerCase();
  const found = UUID.test(id) ? account.requestById.get(id) : undefined;
  const original = found && retained(runtime, found.acceptedAt) ? found : undefined;
  // Counted before it is answered, whatever the answer, as an ingest call is.
  const headers = charge(
    ctx,
    retryScopes(original?.kind ?? "orders").map((scope) => ({ scope, count: 1 })),
  );
  if (!original) throw withHeaders(requestNotFound(ctx.params.request_id), headers);
  if (!isRetryable(original.status)) throw withHeaders(requestNotRetryable(id, original.status), headers);
  const accepted = (requestId: string, replayed: boolean, ack = ingestAccepted(requestId, ctx.traceId)) => ({
    status: 202 as const,
    body: ack,
    headers: { ...headers, ...acceptedHeaders(`${basePath(runtime)}/requests`, ack.request_id, replayed) },
  });
  const idempotencyKey = ctx.headers.get("idempotency-key");
  if (idempotencyKey === null) return accepted(resend(ctx, account, original, null), false);
  // The call has no body: every call for this request has the same fingerprint, so a live key replays.
  const key = `${retryEndpoint(id)}\n${idempotencyKey}`;
  const existing = account.idempotency.get(key);
  const now = runtime.clock.now();
  const live = existing && idempotencyKeyLive(existing.createdAt, now) ? existing : undefined;
  if (live && idempotencyDecision(live, RETRY_FINGERPRINT) === "replay") {
    return accepted(live.ack.request_id, true, live.ack);
  }
  const result = accepted(resend(ctx, account, original, idempotencyKey), false);
  account.idempotency.set(key, { bodyHash: RETRY_FINGERPRINT, ack: result.body, createdAt: now });
  return result;
};

const retryRequests: RouteHandler<"retryRequests"> = async (ctx) => {
  const { runtime, account, body } = ctx;
  const idempotencyKey = ctx.headers.get("idempotency-key");
  const bodyHash = await bodyFingerprint(JSON.stringify(body));
  // After the await: nothing below yields, so two calls with one key cannot both run the selection.
  const now = runtime.clock.now();
  if (idempotencyKey !== null) {
    const existing = account.bulkRetries.get(idempotencyKey);
    const live = existing && idempotencyKeyLive(existing.createdAt, now) ? existing : undefined;
    const decision = idempotencyDecision(live, bodyHash);
    if (decision === "conflict") throw idempotencyKeyReused();
    if (decision === "replay" && live) {
      // A replay counts as one call, as a replayed ingest call does.
      const headers = charge(ctx, [{ scope: "ingest", count: 1 }]);
      return { status: 202, body: live.result, headers: { ...headers, "Idempotent-Replayed": "true" } };
    }
  }
  const selection = bulkRetrySelection(body, now, runtime.options.requestRetentionDays);
  const matching = account.requests.filter(
    (e) =>
      e.status === selection.status &&
      e.retriedBy === undefined &&
      e.acceptedAt >= selection.sinceMs &&
      e.acceptedAt < selection.untilMs &&
      (selection.kind === undefined || e.kind === selection.kind),
  );
  // account.requests is in acceptance order: oldest first.
  const originals = matching.slice(0, selection.limit);
  const headers = charge(ctx, bulkRetryCharge(originals.map((e) => e.kind)));
  const retries = originals.map((original) => ({
    request_id: resend(ctx, account, original, null),
    retry_of: original.id,
  }));
  const result = retryRequestsResult(retries, matching.length > originals.length);
  if (idempotencyKey !== null) account.bulkRetries.set(idempotencyKey, { bodyHash, result, createdAt: now });
  return { status: 202, body: result, headers };
};

export const requestRetryRoutes = { retryRequest, retryRequests } satisfies Partial<RouteTable>;
