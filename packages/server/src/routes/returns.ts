// GET /returns (the change feed) and GET /returns/{return_id}.
import { feedPage, limitOf, notFound, stringFilters } from "@oisr/contract";
import { type Request, type Response, Router } from "express";
import { accountOf } from "../http/auth.ts";
import { cursorsOf } from "../http/cursor.ts";
import type { ResourceStore } from "../store/resources.ts";

const FILTERS = ["status", "order_id", "updated_since"] as const;

export function returnRoutes(store: ResourceStore): Router {
  const router = Router();
  router.get("/returns", async (req: Request, res: Response) => {
    const cursors = cursorsOf(res);
    const limit = limitOf(req.query);
    const { position, filters } = await cursors.decode<number>(
      req.query.cursor,
      stringFilters(req.query, FILTERS),
    );
    const after = position ?? 0;
    const rows = await store.returnFeed(accountOf(res).id, filters, after, limit + 1);
    res.json(await feedPage(cursors, rows, limit, after, filters));
  });
  router.get("/returns/:return_id", async (req: Request, res: Response) => {
    const identifier = String(req.params.return_id);
    const found = await store.getReturn(accountOf(res).id, identifier);
    if (!found) throw notFound(`No return with id or external_id "${identifier}".`);
    res.json(found);
  });
  return router;
}
