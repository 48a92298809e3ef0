// GET /orders (the change feed) and GET /orders/{identifier}.
import { type Request, type Response, Router } from "express";
import { accountOf } from "../http/auth.ts";
import { cursorsOf } from "../http/cursor.ts";
import { HttpProblem } from "../http/problem.ts";
import type { ResourceStore } from "../store/resources.ts";
import { feedPage, limitOf, stringFilters } from "./pages.ts";

const FILTERS = ["status", "source", "updated_since"] as const;

export function orderRoutes(store: ResourceStore): Router {
  const router = Router();
  router.get("/orders", async (req: Request, res: Response) => {
    const cursors = cursorsOf(res);
    const limit = limitOf(req.query);
    const { position, filters } = cursors.decode<number>(req.query.cursor, stringFilters(req.query, FILTERS));
    const after = position ?? 0;
    const rows = await store.orderFeed(accountOf(res).id, filters, after, limit + 1);
    res.json(feedPage(cursors, rows, limit, after, filters));
  });
  router.get("/orders/:identifier", async (req: Request, res: Response) => {
    const identifier = String(req.params.identifier);
    const order = await store.getOrder(accountOf(res).id, identifier);
    if (!order) throw new HttpProblem(404, "not_found", `No order with id or external_id "${identifier}".`);
    res.json(order);
  });
  return router;
}
