// GET /returns (the change feed) and GET /returns/{return_id}.
import { feedPage, limitOf, notFound, stringFilters } from "@oisr/contract";
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
      const { account } = res.locals;
      const cursors = codec.forAccount(account.id);
      const limit = limitOf(req.query);
      const { position, filters } = await cursors.decode<number>(
        req.query.cursor,
        stringFilters(req.query, FILTERS),
      );
      const after = position ?? 0;
      const rows = await store.returnFeed(account.id, filters, after, limit + 1);
      res.json(await feedPage(cursors, rows, limit, after, filters));
    }),
  );
  router.get(
    "/returns/:return_id",
    operation("getReturn", async (req, res) => {
      const identifier = req.params.return_id;
      const found = await store.getReturn(res.locals.account.id, identifier);
      if (!found) throw notFound(`No return with id or external_id "${identifier}".`);
      res.json(found);
    }),
  );
  return router;
}
