// POST …/recover: a recovery is a row in webhook_recoveries that dispatchers work through in
// steps (runRecoveryStep), each queueing a new sending (trigger `recover`) of the next
// RECOVERY_BATCH_SIZE events of the window in one short transaction. The step advances
// `after_feed_seq` in the transaction that queues its events, so a dispatcher dying mid-way leaves
// the job where its last commit put it: another one resumes it and queues no event twice.
import { RECOVERY_BATCH_SIZE, type RecoveryWindow } from "@oisr/contract";
import { and, asc, eq, sql } from "drizzle-orm";
import { EVENTS_CHANNEL } from "../../db/channels.ts";
import type { Database } from "../../db/client.ts";
import { webhookRecoveries } from "../../db/webhook-schema.ts";
import { newId } from "../../store/ids.ts";
import { lockSubscription, newRound } from "./rounds.ts";

/** How much earlier than `since` the walk along the feed starts (see startRecovery). */
const START_MARGIN_MS = 3_600_000;

export type RecoveryRow = typeof webhookRecoveries.$inferSelect;

export type StartOutcome =
  | { outcome: "started"; recovery: RecoveryRow }
  | { outcome: "no_subscription" }
  | { outcome: "disabled" };

export function createRecoveryStore(database: Database) {
  const { db } = database;
  return {
    /** Records a running recovery of an enabled subscription and wakes the dispatchers. */
    async startRecovery(
      accountId: string,
      subscriptionId: string,
      window: RecoveryWindow,
    ): Promise<StartOutcome> {
      const result = await db.transaction(async (tx): Promise<StartOutcome> => {
        // Under the subscription's lock, so a PATCH disabling it is either before (409) or after
        // (the first step finds it disabled and completes the recovery with nothing queued).
        const subscription = await lockSubscription(tx, accountId, subscriptionId);
        if (!subscription) return { outcome: "no_subscription" };
        if (subscription.status !== "enabled") return { outcome: "disabled" };
        // Where the walk along the account's feed starts: just before the first event made since an
        // hour before `since`. `events` is partitioned on created_at, so the partitions before that
        // are not read; the hour is a margin, and without this the first step
        // would walk up to the retention period's events that precede the window. With no event that
        // recent, the feed's end: every later event commits at a higher position.
        const bound = new Date(Math.max(0, window.since.getTime() - START_MARGIN_MS)).toISOString();
        const [start] = await database.rows<{ seq: string | number }>(
          sql`select coalesce(
                (select min(feed_seq) - 1 from events where account_id = ${accountId} and created_at >= ${bound}),
                (select max(feed_seq) from events where account_id = ${accountId}),
                0) as seq`,
          tx,
        );
        const [recovery] = await tx
          .insert(webhookRecoveries)
          .values({
            accountId,
            id: newId("whr"),
            subscriptionId,
            since: window.since.toISOString(),
            until: window.until.toISOString(),
            afterFeedSeq: Number(start?.seq ?? 0),
          })
          .returning();
        return { outcome: "started", recovery: recovery as RecoveryRow };
      });
      if (result.outcome === "started") await database.notify(EVENTS_CHANNEL, accountId).catch(() => {});
      return result;
    },

    async getRecovery(
      accountId: string,
      subscriptionId: string,
      id: string,
    ): Promise<RecoveryRow | undefined> {
      const [row] = await db
        .select()
        .from(webhookRecoveries)
        .where(
          and(
            eq(webhookRecoveries.accountId, accountId),
            eq(webhookRecoveries.subscriptionId, subscriptionId),
            eq(webhookRecoveries.id, id),
          ),
        );
      return row;
    },
  };
}

/**
 * One step of the oldest running recovery no other dispatcher is working on: queues the next
 * `batchSize` events of the account's feed after `after_feed_seq` whose type the subscription
 * receives now (`webhook.test` events have no feed position, so they are never among them) and
 * that were created in [since, until), each as a new round of attempts; a short batch completes
 * the recovery. A subscription disabled or deleted meanwhile completes it with what was queued.
 * Returns whether there was a recovery to work on.
 */
export async function runRecoveryStep(database: Database, batchSize = RECOVERY_BATCH_SIZE): Promise<boolean> {
  // Every pass of every dispatcher asks: one index probe (webhook_recoveries_running_idx) when
  // there is nothing to do, rather than a transaction.
  const [any] = await database.rows<{ running: boolean }>(
    sql`select exists (select 1 from webhook_recoveries where status = 'running') as running`,
  );
  if (!any?.running) return false;
  return database.db.transaction(async (tx) => {
    const [recovery] = await tx
      .select()
      .from(webhookRecoveries)
      .where(eq(webhookRecoveries.status, "running"))
      .orderBy(asc(webhookRecoveries.createdAt))
      .limit(1)
      .for("update", { skipLocked: true });
    if (!recovery) return false;
    const { accountId, subscriptionId } = recovery;
    const key = and(eq(webhookRecoveries.accountId, accountId), eq(webhookRecoveries.id, recovery.id));
    const complete = { status: "completed", completedAt: sql`now()` } as const;

    const subscription = await lockSubscription(tx, accountId, subscriptionId);
    if (subscription?.status !== "enabled") {
      await tx.update(webhookRecoveries).set(complete).where(key);
      return true;
    }
    // Delivery ids are made here (ULIDs, in feed order) and paired with the batch by position:
    // the whole batch is one INSERT … SELECT, not a round trip per event.
    const ids = Array.from({ length: batchSize }, () => newId("whd")).join(",");
    const round = newRound(
      "recover",
      { accountId, subscriptionId, eventId: sql.raw("b.id") },
      subscription.pausedUntil,
    );
    const [step] = await database.rows<{ matched: number; last_seq: string | number | null; queued: number }>(
      sql`with batch as (
            select e.id, e.type, e.feed_seq,
                   row_number() over (order by e.feed_seq) as n
              from events e
              join webhook_subscriptions s on s.account_id = e.account_id and s.id = ${subscriptionId}
             where e.account_id = ${accountId} and e.feed_seq > ${recovery.afterFeedSeq}
               and e.type = any(s.events) and e.type <> 'webhook.test'
               and e.created_at >= ${recovery.since} and e.created_at < ${recovery.until}
             order by e.feed_seq
             limit ${batchSize}
          ), queued as (
            insert into webhook_deliveries
                   (account_id, id, subscription_id, event_id, event_type, trigger, round, attempt, next_attempt_at, created_at)
            select ${accountId}, ids.id, ${subscriptionId}, b.id, b.type, ${round.trigger},
                   ${round.round}, ${sql.raw(String(round.attempt))}, ${round.nextAttemptAt}, oisr_ulid_time(ids.id)
              from batch b
              join unnest(string_to_array(${ids}, ',')) with ordinality as ids(id, n) on ids.n = b.n
            -- An event not fanned out yet gets round 0 here and again from its fan-out: with deliveries
            -- partitioned (decision 020) no unique index spans both, so it may be sent twice, with the
            -- same webhook-id, as at-least-once delivery allows.
            returning 1
          )
          select (select count(*) from batch)::int as matched,
                 (select max(feed_seq) from batch) as last_seq,
                 (select count(*) from queued)::int as queued`,
      tx,
    );
    const matched = Number(step?.matched ?? 0);
    await tx
      .update(webhookRecoveries)
      .set({
        afterFeedSeq: step?.last_seq == null ? recovery.afterFeedSeq : Number(step.last_seq),
        eventsQueued: sql`${webhookRecoveries.eventsQueued} + ${Number(step?.queued ?? 0)}`,
        ...(matched < batchSize ? complete : {}),
      })
      .where(key);
    return true;
  });
}
