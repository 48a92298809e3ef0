// GET /orders (the change feed) and GET /orders/{identifier}.
import { orderNotFound, stringFilters } from "@oisr/contract";
import { Router } from "express";
import type { Cursors } from "../http/cursor.ts";
import { operation } from "../http/typed.ts";
import type { ResourceStore } from "../store/resources.ts";
import { feedPages } from "./feed.ts";

const FILTERS = ["status", "source", "updated_since"] as const;

export function orderRoutes(store: ResourceStore, codec: Cursors): Router {
  const router = Router();
  const feed = feedPages(codec);
  router.get(
    "/orders",
    operation("listOrders", async (req, res) => {
      res.json(await feed(res, req.query, stringFilters(req.query, FILTERS), store.orderFeed));
    }),
  );
  router.get(
    "/orders/:identifier",
    operation("getOrder", async (req, res) => {
      const { identifier } = req.params;
      const order = await store.getOrder(res.locals.account.id, identifier);
      if (!order) throw orderNotFound(identifier);
      res.json(order);
    }),
  );
  return router;
}
