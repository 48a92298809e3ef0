// GET /returns (the change feed) and GET /returns/{return_id}.
import { returnNotFound, stringFilters } from "@oisr/contract";
import { Router } from "express";
import type { Cursors } from "../http/cursor.ts";
import { operation } from "../http/typed.ts";
import type { ResourceStore } from "../store/resources.ts";
import { feedPages } from "./feed.ts";

const FILTERS = ["status", "order_id", "updated_since"] as const;

export function returnRoutes(store: ResourceStore, codec: Cursors): Router {
  const router = Router();
  const feed = feedPages(codec);
  router.get(
    "/returns",
    operation("listReturns", async (req, res) => {
      res.json(await feed(res, req.query, stringFilters(req.query, FILTERS), store.returnFeed));
    }),
  );
  router.get(
    "/returns/:return_id",
    operation("getReturn", async (req, res) => {
      const identifier = req.params.return_id;
      const found = await store.getReturn(res.locals.account.id, identifier);
      if (!found) throw returnNotFound(identifier);
      res.json(found);
    }),
  );
  return router;
}
