// POST /ingest/*: validated (before this runs), stored, answered 202 at once; the processor
// applies it later. Idempotency keys are scoped to account, endpoint as called, and key
// (@oisr/contract's idempotency rules, as on the server).
import {
  acceptedHeaders,
  bodyFingerprint,
  type IngestAccepted,
  idempotencyDecision,
  idempotencyKeyLive,
  idempotencyKeyReused,
  ingestAccepted,
  notFound,
} from "@oisr/contract";
import { type IngestKind, resolveReturn } from "@oisr/domain";
import { uuidv7 } from "../ids.ts";
import type { RequestEntry } from "../store/account.ts";
import { basePath, type RouteContext, type RouteHandler, type RouteResult } from "./context.ts";

/** A server return id: such a path is checked at once; an RMA may name a return still queued. */
const RETURN_ID = /^ret_[0-9A-HJKMNP-TV-Z]{26}$/;

const ENDPOINTS: Record<string, { kind: IngestKind; items: string }> = {
  ingestOrders: { kind: "orders", items: "orders" },
  ingestInventory: { kind: "inventory", items: "snapshots" },
  ingestShipments: { kind: "shipments", items: "shipments" },
  ingestReturns: { kind: "returns", items: "returns" },
  ingestDispositions: { kind: "dispositions", items: "dispositions" },
};

function ingest(kind: IngestKind, items: string): RouteHandler {
  return async (ctx: RouteContext): Promise<RouteResult> => {
    const { runtime, account } = ctx;
    const body = ctx.body as Record<string, unknown[]>;
    const returnId = kind === "dispositions" ? ctx.params.return_id : undefined;
    if (returnId !== undefined && RETURN_ID.test(returnId) && !resolveReturn(account.state, returnId)) {
      throw notFound(`No return ${returnId} in this account.`);
    }
    const idempotencyKey = ctx.headers.get("idempotency-key");
    const bodyJson = JSON.stringify(body);
    // Hashed first: no await between reading the key and claiming it, so a concurrent call with
    // the same key sees this one's claim.
    const bodyHash = idempotencyKey === null ? "" : await bodyFingerprint(bodyJson);
    const now = runtime.clock.now();
    const id = uuidv7(now);
    const ack = ingestAccepted(id, ctx.traceId);
    const accepted = (replayed: boolean, answer: IngestAccepted = ack): RouteResult => ({
      status: 202,
      body: answer,
      headers: acceptedHeaders(`${basePath(runtime)}/requests`, answer.request_id, replayed),
    });
    if (idempotencyKey !== null) {
      const key = `POST ${ctx.path}\n${idempotencyKey}`;
      const existing = account.idempotency.get(key);
      const live = existing && idempotencyKeyLive(existing.createdAt, now) ? existing : undefined;
      const decision = idempotencyDecision(live, bodyHash);
      if (decision === "conflict") throw idempotencyKeyReused();
      if (decision === "replay" && live) return accepted(true, live.ack);
      account.idempotency.set(key, { bodyHash, ack, createdAt: now });
    }
    const entry: RequestEntry = {
      seq: runtime.store.nextRequestSeq(),
      id,
      kind,
      status: "pending",
      traceId: ctx.traceId,
      idempotencyKey,
      apiKeyId: ctx.apiKey.id,
      returnId,
      // A copy: the caller's object must not change what gets applied.
      body: JSON.parse(bodyJson),
      itemCount: body[items]?.length ?? 0,
      acceptedAt: now,
      startedAt: null,
      completedAt: null,
      attempts: 0,
      result: null,
      errors: [],
      error: null,
      scenario: runtime.scenarios.takeFor(account, kind),
      dueAt: now + runtime.options.processingDelayMs,
    };
    runtime.processor.accept(account, entry);
    return accepted(false);
  };
}

export const ingestRoutes: Record<string, RouteHandler> = Object.fromEntries(
  Object.entries(ENDPOINTS).map(([operationId, e]) => [operationId, ingest(e.kind, e.items)]),
);
