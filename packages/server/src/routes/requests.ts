// GET /requests and GET /requests/{request_id}: processing records, newest first.
import { limitOf, requestNotFound, requestPage, retentionCutoff, stringFilters } from "@oisr/contract";
import { Router } from "express";
import type { Cursors } from "../http/cursor.ts";
import { operation } from "../http/typed.ts";
import { type RequestStore, requestRecordOfRow } from "../queue/index.ts";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function requestRoutes(store: RequestStore, codec: Cursors, retentionDays: number): Router {
  const router = Router();

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
    "/requests/:request_id",
    operation("getRequest", async (req, res) => {
      const id = req.params.request_id;
      const row = UUID.test(id) ? await store.get(res.locals.account.id, id.toLowerCase()) : undefined;
      if (!row || new Date(row.acceptedAt) < retentionCutoff(new Date(), retentionDays)) {
        throw requestNotFound(id);
      }
      res.json(requestRecordOfRow(row));
    }),
  );

  return router;
}
