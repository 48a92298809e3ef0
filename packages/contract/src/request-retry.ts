// Sending a request again (POST /requests/{request_id}/retry and its bulk form POST /requests/retry,
// docs/decisions/014): which statuses may be retried, the 409 for the others, the bulk call's
// bounds and window, the scopes a retry counts toward and the idempotency scope of each form. The
// server and the mock both decide by these, so they refuse and count the same calls.
import type { components } from "./generated/schema.d.ts";
import { HttpProblem } from "./problems.ts";
import type { RateLimitScope } from "./rate-limits.ts";
import { retentionCutoff } from "./retention.ts";

export { isRequestRetryCall } from "./retry-paths.ts";

type Schemas = components["schemas"];
export type RetryRequestsBody = Schemas["RetryRequestsBody"];
export type RetryRequestsResult = Schemas["RetryRequestsResult"];
type RequestStatus = Schemas["RequestStatus"];
type RequestKind = Schemas["RequestKind"];

/** The statuses a request can be sent again from: it finished and nothing of it was applied. */
export const RETRYABLE_STATUSES = ["failed", "dead"] as const satisfies readonly RequestStatus[];
export type RetryableStatus = (typeof RETRYABLE_STATUSES)[number];

export const isRetryable = (status: RequestStatus): status is RetryableStatus =>
  (RETRYABLE_STATUSES as readonly string[]).includes(status);

/** 409 for a retry of a request that is pending, processing or succeeded. */
export const requestNotRetryable = (id: string, status: RequestStatus) =>
  new HttpProblem(
    409,
    "request_not_retryable",
    `Request ${id} is ${status}; only failed and dead requests can be sent again.`,
  );

/**
 * Most requests one bulk call sends again (the spec's `limit` maximum, also its default): 100
 * bodies of at most 5 MiB each are read one after another, so one call holds at most one body in
 * memory, and its rate-limit charge (one ingest call per request) stays a sixth of the default
 * `ingest` limit of 600 a minute.
 */
export const RETRY_BULK_MAX = 100;

/**
 * The scopes one retried request counts toward: those of the ingest call it repeats (scopesFor's
 * order, stricter first), whatever path the retry was asked on.
 */
export const retryScopes = (kind: RequestKind): RateLimitScope[] =>
  kind === "inventory" ? ["ingest_inventory", "ingest"] : ["ingest"];

/**
 * The rate-limit charge of a bulk call that selected `kinds`: one ingest call per request (and one
 * ingest_inventory call per inventory request), or one ingest call when it selected nothing, so
 * that polling an empty window still counts.
 */
export function bulkRetryCharge(kinds: readonly RequestKind[]): { scope: RateLimitScope; count: number }[] {
  const inventory = kinds.filter((k) => k === "inventory").length;
  const charge: { scope: RateLimitScope; count: number }[] = [];
  if (inventory > 0) charge.push({ scope: "ingest_inventory", count: inventory });
  charge.push({ scope: "ingest", count: Math.max(1, kinds.length) });
  return charge;
}

/**
 * The idempotency scope of a single retry: the endpoint with the request's id, lower-cased as the
 * id is stored. The call has no body, so every call for one request has the same fingerprint.
 */
export const retryEndpoint = (requestId: string) => `POST /requests/${requestId.toLowerCase()}/retry`;
export const BULK_RETRY_ENDPOINT = "POST /requests/retry";
export const RETRY_FINGERPRINT = "retry";

/** The bulk call's selection, its instants resolved: `[since, until)` cut at the retention period. */
export interface BulkRetrySelection {
  status: RetryableStatus;
  kind: RequestKind | undefined;
  sinceMs: number;
  untilMs: number;
  limit: number;
}

export function bulkRetrySelection(
  body: RetryRequestsBody,
  nowMs: number,
  retentionDays: number,
): BulkRetrySelection {
  const cutoff = retentionCutoff(new Date(nowMs), retentionDays).getTime();
  return {
    status: body.status,
    kind: body.kind,
    sinceMs: Math.max(Date.parse(body.accepted_since), cutoff),
    untilMs: body.accepted_until === undefined ? nowMs + 1 : Date.parse(body.accepted_until),
    limit: Math.min(body.limit, RETRY_BULK_MAX),
  };
}

/** The 202 body of a bulk call from the pairs it made (oldest original first). */
export function retryRequestsResult(
  retries: { request_id: string; retry_of: string }[],
  hasMore: boolean,
): RetryRequestsResult {
  return { count: retries.length, retries, has_more: hasMore };
}
