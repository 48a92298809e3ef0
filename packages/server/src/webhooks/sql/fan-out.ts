// Turns outbox events into deliveries: one per enabled subscription of the event's account that
// subscribed to its type. The events are claimed and marked by outbox/ (fan-out-claim.ts: SKIP LOCKED,
// so several dispatchers fan out at once) in this transaction, so an event is fanned out once.
// A delivery's created_at is its id's time, its partition key (decision 020).
import { sql } from "drizzle-orm";
import type { Database } from "../../db/client.ts";
import { webhookDeliveries } from "../../db/webhook-schema.ts";
import { claimUndispatched, markDispatched } from "../../outbox/index.ts";
import { newTimedId } from "../../store/ids.ts";
import { type FanOutSpan, startFanOutSpan } from "../../telemetry/webhook-spans.ts";
import { newRound } from "./rounds.ts";

/** Fans out up to `limit` undispatched events in one transaction; returns how many it took. */
export async function fanOut(
  database: Database,
  limit = 100,
): Promise<{ events: number; deliveries: number }> {
  // Started once there are events to fan out (an idle dispatcher polls here): tracing on only.
  let span: FanOutSpan | undefined;
  const fanned = database.db.transaction(async (tx) => {
    const picked = await claimUndispatched(database, tx, limit);
    if (picked.length === 0) return { events: 0, deliveries: 0 };
    span = startFanOutSpan(picked);
    const accountIds = [...new Set(picked.map((e) => e.account_id))];
    const subscriptions = await database.rows<{
      account_id: string;
      id: string;
      events: string[];
      created_at: string;
      paused_ms: string | number | null;
    }>(
      sql`select account_id, id, events, created_at,
                 extract(epoch from paused_until) * 1000 as paused_ms
            from webhook_subscriptions
           where status = 'enabled' and account_id in (${sql.join(
             accountIds.map((a) => sql`${a}`),
             sql`, `,
           )})`,
      tx,
    );
    // A subscription its receiver paused (Retry-After) gets its new deliveries due when the pause ends (newRound).
    const pausedUntil = (s: { paused_ms: string | number | null }) =>
      s.paused_ms === null ? null : new Date(Number(s.paused_ms)).toISOString();
    const rows = picked.flatMap((event) =>
      subscriptions
        // A subscription receives what happens after it was made, not a backlog that was waiting for a dispatcher.
        .filter(
          (s) =>
            s.account_id === event.account_id &&
            s.events.includes(event.type) &&
            new Date(s.created_at) <= new Date(event.created_at),
        )
        .map((s) => ({
          accountId: event.account_id,
          ...newTimedId("whd"),
          subscriptionId: s.id,
          eventId: event.id,
          eventType: event.type,
          ...newRound(
            "event",
            { accountId: event.account_id, subscriptionId: s.id, eventId: event.id },
            pausedUntil(s),
          ),
        })),
    );
    for (let i = 0; i < rows.length; i += 1000) {
      await tx
        .insert(webhookDeliveries)
        .values(rows.slice(i, i + 1000))
        .onConflictDoNothing();
    }
    await markDispatched(database, tx, picked);
    return { events: picked.length, deliveries: rows.length };
  });
  try {
    const counts = await fanned;
    span?.end(counts.deliveries);
    return counts;
  } catch (err) {
    span?.fail(err);
    throw err;
  }
}
