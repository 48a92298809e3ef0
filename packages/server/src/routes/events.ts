// GET /events (the account's events as a feed) and GET /events/{event_id}.
import { eventFeedFilters, eventNotFound } from "@oisr/contract";
import { Router } from "express";
import type { Cursors } from "../http/cursor.ts";
import { operation } from "../http/typed.ts";
import type { EventStore } from "../outbox/index.ts";
import { feedPages } from "./feed.ts";

export function eventRoutes(store: EventStore, codec: Cursors): Router {
  const router = Router();
  const feed = feedPages(codec);
  router.get(
    "/events",
    operation("listEvents", async (req, res) => {
      res.json(await feed(res, req.query, eventFeedFilters(req.query), store.feed));
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
