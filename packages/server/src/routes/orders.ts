// GET /orders (the change feed) and GET /orders/{identifier}.
import { feedPage, limitOf, notFound, stringFilters } from "@oisr/contract";
import { Router } from "express";
import type { Cursors } from "../http/cursor.ts";
import { operation } from "../http/typed.ts";
import type { ResourceStore } from "../store/resources.ts";

const FILTERS = ["status", "source", "updated_since"] as const;

export function orderRoutes(store: ResourceStore, codec: Cursors): Router {
  const router = Router();
  router.get(
    "/orders",
    operation("listOrders", async (req, res) => {
      const { account } = res.locals;
      const cursors = codec.forAccount(account.id);
      const limit = limitOf(req.query);
      const { position, filters } = await cursors.decode<number>(
        req.query.cursor,
        stringFilters(req.query, FILTERS),
      );
      const after = position ?? 0;
      const rows = await store.orderFeed(account.id, filters, after, limit + 1);
      res.json(await feedPage(cursors, rows, limit, after, filters));
    }),
  );
  router.get(
    "/orders/:identifier",
    operation("getOrder", async (req, res) => {
      const { identifier } = req.params;
      const order = await store.getOrder(res.locals.account.id, identifier);
      if (!order) throw notFound(`No order with id or external_id "${identifier}".`);
      res.json(order);
    }),
  );
  return router;
}
