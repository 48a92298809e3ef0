// GET /events (the account's events as a feed) and GET /events/{event_id}.
import { eventFeedFilters, eventNotFound, feedPage, limitOf } from "@oisr/contract";
import { Router } from "express";
import type { Cursors } from "../http/cursor.ts";
import { operation } from "../http/typed.ts";
import type { EventStore } from "../store/events.ts";

export function eventRoutes(store: EventStore, codec: Cursors): Router {
  const router = Router();
  router.get(
    "/events",
    operation("listEvents", async (req, res) => {
      const { account } = res.locals;
      const cursors = codec.forAccount(account.id);
      const limit = limitOf(req.query);
      const { position, filters } = await cursors.decode<number>(
        req.query.cursor,
        eventFeedFilters(req.query),
      );
      const after = position ?? 0;
      const rows = await store.feed(account.id, filters, after, limit + 1);
      res.json(await feedPage(cursors, rows, limit, after, filters));
    }),
  );
  router.get(
    "/events/:event_id",
    operation("getEvent", async (req, res) => {
      const { event_id: id } = req.params;
      const event = await store.get(res.locals.account.id, id);
      if (event === undefined) throw eventNotFound(id);
      res.json(event);
    }),
  );
  return router;
}
