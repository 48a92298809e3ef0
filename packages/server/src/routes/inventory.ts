// GET /inventory: levels per (location_id, sku), keyset-paginated.
import { limitOf, pageOf, stringFilters } from "@oisr/contract";
import { Router } from "express";
import type { Cursors } from "../http/cursor.ts";
import { operation } from "../http/typed.ts";
import type { ResourceStore } from "../store/resources.ts";

export function inventoryRoutes(store: ResourceStore, codec: Cursors): Router {
  const router = Router();
  router.get(
    "/inventory",
    operation("listInventory", async (req, res) => {
      const { account } = res.locals;
      const cursors = codec.forAccount(account.id);
      const limit = limitOf(req.query);
      const { position: after, filters } = await cursors.decode<[string, string]>(
        req.query.cursor,
        stringFilters(req.query, ["location_id", "sku"]),
      );
      const rows = await store.listInventory(account.id, filters, after, limit + 1);
      res.json(
        await pageOf(cursors, rows, {
          limit,
          from: after ?? ["", ""],
          filters,
          positionOf: (r): [string, string] => [r.locationId, r.sku],
          map: (r) => r.body,
        }),
      );
    }),
  );
  return router;
}
