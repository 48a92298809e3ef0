// GET /requests and GET /requests/{request_id}: processing records, newest first. POST
// /requests/{request_id}/retry and POST /requests/retry: failed and dead requests sent again
// (docs/decisions/014), charged to the ingest scopes here, where the request's kind is known.
import { hash } from "node:crypto";
import {
  acceptedHeaders,
  bulkRetryCharge,
  bulkRetrySelection,
  idempotencyKeyReused,
  isRetryable,
  limitOf,
  requestNotFound,
  requestNotRetryable,
  requestPage,
  retentionCutoff,
  retryScopes,
  stringFilters,
} from "@oisr/contract";
import { type Response, Router } from "express";
import type { Cursors } from "../http/cursor.ts";
import { applyRateLimit } from "../http/rate-limit.ts";
import { operation } from "../http/typed.ts";
import { type RequestStore, type RetryCaller, requestRecordOfRow } from "../queue/index.ts";
import type { Charge, ChargeRateLimits } from "../store/rate-limit-charge.ts";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function requestRoutes(
  store: RequestStore,
  codec: Cursors,
  retentionDays: number,
  chargeRateLimits: ChargeRateLimits,
): Router {
  const router = Router();
  const retained = (acceptedAt: string) => new Date(acceptedAt) >= retentionCutoff(new Date(), retentionDays);

  /** Counts the call (headers set); a refused call is answered 429 and counts nothing. */
  async function charge(res: Response, charges: Charge[]): Promise<void> {
    const refused = applyRateLimit(res, await chargeRateLimits(res.locals.account, charges));
    if (refused) throw refused;
  }

  const caller = (res: Response, idempotencyKey: string | undefined): RetryCaller => ({
    accountId: res.locals.account.id,
    idempotencyKey: idempotencyKey ?? null,
    apiKeyId: res.locals.apiKey.id,
    traceId: res.locals.traceId,
  });

  // Before /requests/:request_id/retry would not matter (one more segment), but keep the fixed path first.
  router.post(
    "/requests/retry",
    operation("retryRequests", async (req, res) => {
      const call = caller(res, req.header("idempotency-key"));
      const bodyHash = hash("sha256", JSON.stringify(req.body), "hex");
      // A replay answers what the first call did and counts as one call, as a replayed ingest does.
      const replay = await store.bulkReplay(call, bodyHash);
      if (replay?.kind === "key_reused") throw idempotencyKeyReused();
      if (replay) {
        await charge(res, [{ scope: "ingest", count: 1 }]);
        res.set("Idempotent-Replayed", "true").status(202).json(replay.result);
        return;
      }
      const selection = bulkRetrySelection(req.body, Date.now(), retentionDays);
      const { kinds } = await store.bulkCandidates(call.accountId, selection);
      await charge(res, bulkRetryCharge(kinds));
      const outcome = await store.retryMany(call, selection, bodyHash);
      if (outcome.kind === "key_reused") throw idempotencyKeyReused();
      res.status(202).json(outcome.result);
    }),
  );

  router.post(
    "/requests/:request_id/retry",
    operation("retryRequest", async (req, res) => {
      const id = req.params.request_id.toLowerCase();
      const found = UUID.test(id) ? await store.retryTarget(res.locals.account.id, id) : undefined;
      const target = found && retained(found.acceptedAt) ? found : undefined;
      // Counted before it is answered, whatever the answer, as an ingest call is.
      await charge(
        res,
        retryScopes(target?.kind ?? "orders").map((scope) => ({ scope, count: 1 })),
      );
      if (!target) throw requestNotFound(req.params.request_id);
      if (!isRetryable(target.status)) throw requestNotRetryable(id, target.status);
      const outcome = await store.retry(caller(res, req.header("idempotency-key")), id);
      if (outcome.kind === "key_reused") throw idempotencyKeyReused();
      res.set(acceptedHeaders("/v2/requests", outcome.ack.request_id, outcome.kind === "replayed"));
      res.status(202).json(outcome.ack);
    }),
  );

  router.get(
    "/requests",
    operation("listRequests", async (req, res) => {
      const { account } = res.locals;
      const cursors = codec.forAccount(account.id);
      const limit = limitOf(req.query);
      const { position: before, filters } = await cursors.decode<number>(
        req.query.cursor,
        stringFilters(req.query, ["status", "kind"]),
      );
      const rows = await store.list(account.id, filters, before, limit + 1);
      res.json(await requestPage(cursors, rows, requestRecordOfRow, { limit, before, filters }));
    }),
  );

  router.get(
    "/requests/:request_id/body",
    operation("getRequestBody", async (req, res) => {
      const id = req.params.request_id;
      const found = UUID.test(id) ? await store.body(res.locals.account.id, id.toLowerCase()) : undefined;
      if (!found || !retained(found.acceptedAt)) throw requestNotFound(id);
      // The stored JSON text as is (it was validated against its kind's schema when accepted): up
      // to 5 MiB that parsing and serialising again, as res.json would, only slows down.
      res.type("application/json").end(found.json);
    }),
  );

  router.get(
    "/requests/:request_id",
    operation("getRequest", async (req, res) => {
      const id = req.params.request_id;
      const row = UUID.test(id) ? await store.get(res.locals.account.id, id.toLowerCase()) : undefined;
      if (!row || !retained(row.acceptedAt)) {
        throw requestNotFound(id);
      }
      res.json(requestRecordOfRow(row));
    }),
  );

  return router;
}
