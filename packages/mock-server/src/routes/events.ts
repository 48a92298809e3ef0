// GET /events and GET /events/{event_id}, as the server answers them: the account's events in the
// order they were recorded (the mock applies one request at a time, so that is commit order), each
// at its 1-based place in `account.events`, which only ever grows. `webhook.test` events are not
// listed nor found, and events past the request retention are gone.

import type { WebhookEventBody } from "@oisr/contract";
import { eventFeedFilters, eventNotFound, eventTypesOf, readFeed, TEST_EVENT_TYPE } from "@oisr/contract";
import { ok, type RouteBase, type RouteHandler, type RouteTable, retentionCutoffMs } from "./context.ts";

/** The account's listed events with their feed positions, oldest first. */
function listed(ctx: RouteBase): { seq: number; body: WebhookEventBody }[] {
  const cutoff = retentionCutoffMs(ctx.runtime);
  return ctx.account.events.flatMap((e, i) =>
    e.event.type !== TEST_EVENT_TYPE && e.at >= cutoff ? [{ seq: i + 1, body: e.event }] : [],
  );
}

const listEvents: RouteHandler<"listEvents"> = async (ctx) => {
  const cursors = ctx.runtime.cursors.forAccount(ctx.account.id);
  const page = await readFeed(cursors, ctx.query, eventFeedFilters(ctx.query), (filters, after, take) => {
    const types = eventTypesOf(filters);
    const since = filters.created_since === undefined ? undefined : Date.parse(filters.created_since);
    return listed(ctx)
      .filter(
        (r) =>
          r.seq > after &&
          (types === undefined || types.includes(r.body.type)) &&
          (since === undefined || Date.parse(r.body.created_at) >= since),
      )
      .slice(0, take);
  });
  return ok(page);
};

const getEvent: RouteHandler<"getEvent"> = (ctx) => {
  const id = ctx.params.event_id;
  const found = listed(ctx).find((r) => r.body.id === id);
  if (!found) throw eventNotFound(id);
  return ok(found.body);
};

export const eventRoutes = { listEvents, getEvent } satisfies Partial<RouteTable>;
