// The account's events as GET /events reads them: the `events` outbox rows that have a feed position
// (every event but `webhook.test`), younger than the retention, in feed order. The payload is the
// webhook body as stored (write.ts), so a pulled event and a delivered one are the same.
//
// Positions come from `accounts.feed_seq`, taken under the account row lock in the transaction that
// writes the events (positions.ts), so they are handed out in commit order: reading
// `feed_seq > cursor` never skips an event that commits later with a lower position (there is none). The retention cut is a
// read condition, not only the prune job's: an event past it is gone from the API at once, even
// while prune.ts keeps the row for a delivery still pending.
import type { Filters } from "@oisr/contract";
import { eventTypesOf, retentionCutoff } from "@oisr/contract";
import type { components } from "@oisr/contract/schema";
import { and, asc, eq, gt, gte, inArray, isNotNull, type SQL, sql } from "drizzle-orm";
import type { Database } from "../db/client.ts";
import { primaryReads, type ReadSource } from "../db/read-source.ts";
import { events } from "../db/schema.ts";
import { idTime } from "../store/ids.ts";
import type { FeedRow } from "../store/resources.ts";

/**
 * The payload jsonb as the spec types it: only write.ts writes it (from the domain's typed output,
 * @oisr/contract's requestEvent and testEventObject).
 */
type Event = components["schemas"]["Event"];

/**
 * An event's body as it is served, on GET /events and to webhooks (webhooks/sql/attempts.ts): events
 * stored before API keys have no `api_key_id`, which reads as null; `||` keeps a stored one.
 */
export const servedEventBody = (payload: SQL | typeof events.payload): SQL =>
  sql`jsonb_build_object('api_key_id', null) || ${payload}`;
const body = servedEventBody(events.payload).mapWith(events.payload);

/** `reads` serves the feed, which tolerates lag (a replica, decision 021); `get` reads the primary. */
export function createEventStore(
  database: Database,
  retentionDays: number,
  reads: ReadSource = primaryReads(database),
) {
  const { db } = database;
  const cutoff = (now: Date) => retentionCutoff(now, retentionDays).toISOString();

  return {
    /** Up to `limit` events after feed position `afterSeq` that pass the filters, oldest first. */
    async feed(
      accountId: string,
      filters: Filters,
      afterSeq: number,
      limit: number,
      now = new Date(),
    ): Promise<FeedRow<Event>[]> {
      const conditions = [
        eq(events.accountId, accountId),
        gt(events.feedSeq, afterSeq),
        gte(events.createdAt, cutoff(now)),
      ];
      const types = eventTypesOf(filters);
      if (types) conditions.push(inArray(events.type, types));
      if (filters.created_since) conditions.push(gte(events.createdAt, filters.created_since));
      const rows = await reads.run((db) =>
        db
          .select({ seq: events.feedSeq, body })
          .from(events)
          .where(and(...conditions))
          .orderBy(asc(events.feedSeq))
          .limit(limit),
      );
      // `feed_seq > afterSeq` already excludes the null positions of test events.
      return rows as FeedRow<Event>[];
    },

    /** One listed event by id, or undefined (unknown, another account's, a test event, or too old). */
    async get(accountId: string, id: string, now = new Date()): Promise<Event | undefined> {
      // The id's time is the event's created_at, the partition key: one partition is read.
      const createdAt = idTime(id);
      if (createdAt === undefined) return undefined;
      const [row] = await db
        .select({ body })
        .from(events)
        .where(
          and(
            eq(events.accountId, accountId),
            eq(events.id, id),
            eq(events.createdAt, createdAt),
            isNotNull(events.feedSeq),
            gte(events.createdAt, cutoff(now)),
          ),
        );
      return row?.body as Event | undefined;
    },
  };
}

export type EventStore = ReturnType<typeof createEventStore>;
