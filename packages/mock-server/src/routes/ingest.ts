// POST /ingest/*: validated (before this runs), stored, answered 202 at once; the processor
// applies it later. Idempotency keys are scoped to account, endpoint as called, and key, for 24 h.
import { type IngestKind, resolveReturn } from "@oisr/domain";
import { HttpProblem } from "../http/problem.ts";
import { uuidv7 } from "../ids.ts";
import type { RequestEntry } from "../store/account.ts";
import { basePath, type RouteContext, type RouteHandler, type RouteResult } from "./context.ts";

const IDEMPOTENCY_WINDOW_MS = 24 * 3_600_000;
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
  return (ctx: RouteContext): RouteResult => {
    const { runtime, account } = ctx;
    const now = runtime.clock.now();
    const body = ctx.body as Record<string, unknown[]>;
    const returnId = kind === "dispositions" ? ctx.params.return_id : undefined;
    if (returnId !== undefined && RETURN_ID.test(returnId) && !resolveReturn(account.state, returnId)) {
      throw new HttpProblem(404, "not_found", `No return ${returnId} in this account.`);
    }
    const idempotencyKey = ctx.headers.get("idempotency-key");
    const bodyJson = JSON.stringify(body);
    const id = uuidv7(now);
    const ack = { message: "Accepted for processing.", request_id: id, trace_id: ctx.traceId };
    const accepted = (replayed: boolean, answer = ack): RouteResult => ({
      status: 202,
      body: answer,
      headers: {
        Location: `${basePath(runtime)}/requests/${answer.request_id}`,
        "Retry-After": "1",
        ...(replayed ? { "Idempotent-Replayed": "true" } : {}),
      },
    });
    if (idempotencyKey !== null) {
      const key = `POST ${ctx.path}\n${idempotencyKey}`;
      const existing = account.idempotency.get(key);
      if (existing && existing.createdAt >= now - IDEMPOTENCY_WINDOW_MS) {
        if (existing.bodyJson === bodyJson) return accepted(true, existing.ack);
        throw new HttpProblem(
          422,
          "idempotency_key_reused",
          "This Idempotency-Key was already used with a different body on this endpoint in the last 24 hours. Use a new key for a new request.",
        );
      }
      account.idempotency.set(key, { bodyJson, ack, createdAt: now });
    }
    const entry: RequestEntry = {
      seq: runtime.store.nextRequestSeq(),
      id,
      kind,
      status: "pending",
      traceId: ctx.traceId,
      idempotencyKey,
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
