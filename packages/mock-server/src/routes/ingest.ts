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
  ingestReturnNotFound,
} from "@oisr/contract";
import { type IngestBodies, type IngestKind, itemCount, resolveReturn } from "@oisr/domain";
import { uuidv7 } from "../ids.ts";
import type { RequestEntry } from "../store/account.ts";
import { basePath, type OperationResult, type RouteBase, type RouteTable } from "./context.ts";

/** A server return id: such a path is checked at once; an RMA may name a return still queued. */
const RETURN_ID = /^ret_[0-9A-HJKMNP-TV-Z]{26}$/;

type IngestResult = OperationResult<"ingestOrders">;

/**
 * The one ingest handler, for the calls of one kind. Each entry of `ingestRoutes` hands it to the
 * spec's operation, so the typecheck proves that operation's body is the domain's body of that kind.
 */
type IngestHandler<Kind extends IngestKind> = (
  ctx: RouteBase & { params: { return_id?: string }; body: IngestBodies[Kind] },
) => Promise<IngestResult>;

function ingest<Kind extends IngestKind>(kind: Kind): IngestHandler<Kind> {
  return async (ctx) => {
    const { runtime, account, body } = ctx;
    const returnId = ctx.params.return_id;
    if (returnId !== undefined && RETURN_ID.test(returnId) && !resolveReturn(account.state, returnId)) {
      throw ingestReturnNotFound(returnId);
    }
    const idempotencyKey = ctx.headers.get("idempotency-key");
    const bodyJson = JSON.stringify(body);
    // Hashed first: no await between reading the key and claiming it, so a concurrent call with
    // the same key sees this one's claim.
    const bodyHash = idempotencyKey === null ? "" : await bodyFingerprint(bodyJson);
    const now = runtime.clock.now();
    const id = uuidv7(now);
    const ack = ingestAccepted(id, ctx.traceId);
    const accepted = (replayed: boolean, answer: IngestAccepted = ack): IngestResult => ({
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
      itemCount: itemCount(kind, body),
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

export const ingestRoutes = {
  ingestOrders: ingest("orders"),
  ingestInventory: ingest("inventory"),
  ingestShipments: ingest("shipments"),
  ingestReturns: ingest("returns"),
  ingestDispositions: ingest("dispositions"),
} satisfies Partial<RouteTable>;
