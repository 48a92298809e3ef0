// GET /returns (the change feed) and GET /returns/{return_id}.
import { readFeed, returnNotFound, stringFilters } from "@oisr/contract";
import { Router } from "express";
import type { Cursors } from "../http/cursor.ts";
import { operation } from "../http/typed.ts";
import type { ResourceStore } from "../store/resources.ts";

const FILTERS = ["status", "order_id", "updated_since"] as const;

export function returnRoutes(store: ResourceStore, codec: Cursors): Router {
  const router = Router();
  router.get(
    "/returns",
    operation("listReturns", async (req, res) => {
      const accountId = res.locals.account.id;
      const page = await readFeed(
        codec.forAccount(accountId),
        req.query,
        stringFilters(req.query, FILTERS),
        (filters, after, take) => store.returnFeed(accountId, filters, after, take),
      );
      res.json(page);
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
