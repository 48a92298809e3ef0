// GET /requests and GET /requests/{request_id}: processing records, newest first.
import { limitOf, notFound, requestPage, stringFilters } from "@oisr/contract";
import { type Request, type Response, Router } from "express";
import { accountOf } from "../http/auth.ts";
import { cursorsOf } from "../http/cursor.ts";
import { type RequestStore, toRequestRecord } from "../queue/index.ts";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function requestRoutes(store: RequestStore, retentionDays: number): Router {
  const router = Router();
  const retentionMs = retentionDays * 86_400_000;

  router.get("/requests", async (req: Request, res: Response) => {
    const cursors = cursorsOf(res);
    const limit = limitOf(req.query);
    const { position: before, filters } = await cursors.decode<number>(
      req.query.cursor,
      stringFilters(req.query, ["status", "kind"]),
    );
    const rows = await store.list(accountOf(res).id, filters, before, limit + 1);
    res.json(await requestPage(cursors, rows, toRequestRecord, { limit, before, filters }));
  });

  router.get("/requests/:request_id", async (req: Request, res: Response) => {
    const id = String(req.params.request_id);
    const row = UUID.test(id) ? await store.get(accountOf(res).id, id.toLowerCase()) : undefined;
    if (!row || Date.now() - new Date(row.acceptedAt).getTime() > retentionMs) {
      throw notFound(`No request ${id} in this account.`);
    }
    res.json(toRequestRecord(row));
  });

  return router;
}
