// GET /inventory: levels per (location_id, sku), keyset-paginated.
import { limitOf, pageOf, stringFilters } from "@oisr/contract";
import { type Request, type Response, Router } from "express";
import { accountOf } from "../http/auth.ts";
import { cursorsOf } from "../http/cursor.ts";
import type { ResourceStore } from "../store/resources.ts";

export function inventoryRoutes(store: ResourceStore): Router {
  const router = Router();
  router.get("/inventory", async (req: Request, res: Response) => {
    const cursors = cursorsOf(res);
    const limit = limitOf(req.query);
    const { position: after, filters } = await cursors.decode<[string, string]>(
      req.query.cursor,
      stringFilters(req.query, ["location_id", "sku"]),
    );
    const rows = await store.listInventory(accountOf(res).id, filters, after, limit + 1);
    res.json(
      await pageOf(cursors, rows, {
        limit,
        from: after ?? ["", ""],
        filters,
        positionOf: (r): [string, string] => [r.locationId, r.sku],
        map: (r) => r.body,
      }),
    );
  });
  return router;
}
