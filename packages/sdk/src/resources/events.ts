import type { ApiPromise } from "../internal/api-promise.ts";
import { type Context, init, type RequestOptions, unwrap } from "../internal/context.ts";
import { type ChangesOptions, iterateList, listChanges } from "../internal/paginate.ts";
import type { Event, EventPage, ListEventsParams } from "../types.ts";

/** Filters of the events feed (the cursor is given separately). */
export type EventChangesOptions = ChangesOptions & Omit<ListEventsParams, "cursor">;

export interface EventsResource {
  /**
   * One page of the account's events, oldest first: the same objects webhook deliveries carry
   * (`id` is their `webhook-id`). `webhook.test` events are not listed.
   * @example
   * ```ts
   * const page = await client.events.list({ type: ["return.completed"], limit: 100 });
   * ```
   */
  list(params?: ListEventsParams, options?: RequestOptions): ApiPromise<EventPage>;
  /**
   * Every event matching the filters, page after page.
   * @example
   * ```ts
   * for await (const event of client.events.iterate({ created_since: "2025-03-01T00:00:00Z" })) console.log(event.id);
   * ```
   */
  iterate(params?: ListEventsParams, options?: RequestOptions): AsyncGenerator<Event, void, undefined>;
  /**
   * One event by id (`evt_…`, a delivery's `webhook-id`); `NotFoundError` past the retention.
   * @example `const event = await client.events.get(headers["webhook-id"])`
   */
  get(eventId: string, options?: RequestOptions): ApiPromise<Event>;
  /**
   * An endless feed of new events, to pull them instead of (or besides) receiving webhooks.
   * Persist `cursor` after handling each event and resume with it (and the same filters);
   * at-least-once, so deduplicate by `id`. Aborting the signal ends the loop.
   * @example
   * ```ts
   * for await (const { event, cursor } of client.events.changes({ cursor: await load(), type: ["return.completed"] })) {
   *   await handle(event);
   *   await save(cursor);
   * }
   * ```
   */
  changes(
    options?: EventChangesOptions,
  ): AsyncGenerator<{ event: Event; cursor: string | null }, void, undefined>;
}

export function eventsResource(ctx: Context): EventsResource {
  const list = (params: ListEventsParams = {}, options?: RequestOptions) =>
    unwrap(ctx.raw.GET("/events", { params: { query: params }, ...init(ctx, options) }));
  return {
    list,
    iterate: (params = {}, options) => iterateList(list, params, options),
    get: (eventId, options) =>
      unwrap(
        ctx.raw.GET("/events/{event_id}", { params: { path: { event_id: eventId } }, ...init(ctx, options) }),
      ),
    async *changes(options = {}) {
      for await (const change of listChanges(list, options, ctx.sleep)) {
        yield { event: change.item, cursor: change.cursor };
      }
    },
  };
}
