// GET /orders (the change feed) and GET /orders/{identifier}.
import { feedPage, limitOf, notFound, stringFilters } from "@oisr/contract";
import { type Request, type Response, Router } from "express";
import { accountOf } from "../http/auth.ts";
import { cursorsOf } from "../http/cursor.ts";
import type { ResourceStore } from "../store/resources.ts";

const FILTERS = ["status", "source", "updated_since"] as const;

export function orderRoutes(store: ResourceStore): Router {
  const router = Router();
  router.get("/orders", async (req: Request, res: Response) => {
    const cursors = cursorsOf(res);
    const limit = limitOf(req.query);
    const { position, filters } = await cursors.decode<number>(
      req.query.cursor,
      stringFilters(req.query, FILTERS),
    );
    const after = position ?? 0;
    const rows = await store.orderFeed(accountOf(res).id, filters, after, limit + 1);
    res.json(await feedPage(cursors, rows, limit, after, filters));
  });
  router.get("/orders/:identifier", async (req: Request, res: Response) => {
    const identifier = String(req.params.identifier);
    const order = await store.getOrder(accountOf(res).id, identifier);
    if (!order) throw notFound(`No order with id or external_id "${identifier}".`);
    res.json(order);
  });
  return router;
}
