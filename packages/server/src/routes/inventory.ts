// GET /inventory: levels per (location_id, sku), keyset-paginated.
import { type Request, type Response, Router } from "express";
import { accountOf } from "../http/auth.ts";
import { cursorsOf } from "../http/cursor.ts";
import type { ResourceStore } from "../store/resources.ts";
import { limitOf, stringFilters } from "./pages.ts";

export function inventoryRoutes(store: ResourceStore): Router {
  const router = Router();
  router.get("/inventory", async (req: Request, res: Response) => {
    const cursors = cursorsOf(res);
    const limit = limitOf(req.query);
    const { position: after, filters } = cursors.decode<[string, string]>(
      req.query.cursor,
      stringFilters(req.query, ["location_id", "sku"]),
    );
    const rows = await store.listInventory(accountOf(res).id, filters, after, limit + 1);
    const page = rows.slice(0, limit);
    const last = page.at(-1);
    res.json({
      data: page.map((r) => r.body),
      next_cursor: cursors.encode(last ? [last.locationId, last.sku] : (after ?? ["", ""]), filters),
      has_more: rows.length > limit,
    });
  });
  return router;
}
