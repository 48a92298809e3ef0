// Sendings ("rounds") of an event to a subscription. Each round has its own attempts 1, 2, … and
// its own retry schedule; the event keeps its id in every round, so the receiver gets the same
// `webhook-id` again and can deduplicate. Every first attempt of a round, whatever made it, takes
// its trigger, round number, attempt number and due time from newRound(); every later attempt of a
// round from nextAttemptOf(). Nothing else writes those columns.
import type { DeliveryTrigger } from "@oisr/contract";
import { and, eq, type SQL, sql } from "drizzle-orm";
import type { Tx } from "../../db/client.ts";
import { webhookSubscriptions } from "../../db/webhook-schema.ts";

/** What sent the event (the spec's delivery `trigger`): fan-out, POST …/test, …/deliveries/{id}/retry, …/recover. */
export type { DeliveryTrigger } from "@oisr/contract";

/** A value of the new row: a parameter, or a column of the INSERT … SELECT that makes it. */
type Value = string | SQL;

export interface RoundOf {
  accountId: Value;
  subscriptionId: Value;
  eventId: Value;
}

/**
 * The columns of a new round's first attempt:
 * - `event` (fan-out) and `test` take round 0: a fan-out meets an event once (the unique attempt
 *   index drops a second one), and a test event is new, with its one subscription;
 * - `retry` and `recover` take the next round of that event for that subscription. Callers hold
 *   the subscription's lock (lockSubscription), so two of them never take the same number;
 * - every round is due now, or when the receiver's Retry-After pause ends (`pausedUntil`), since
 *   no claim would make it sooner: the deliveries log then shows when it will be sent.
 */
export function newRound(trigger: DeliveryTrigger, of: RoundOf, pausedUntil: Value | null) {
  const round =
    trigger === "event" || trigger === "test"
      ? sql`0`
      : // An event's attempts are made at or after its time: the partitions before it are skipped.
        sql`coalesce((select max(r.round) from webhook_deliveries r
                       where r.account_id = ${of.accountId} and r.subscription_id = ${of.subscriptionId}
                         and r.event_id = ${of.eventId} and r.created_at >= oisr_ulid_time(${of.eventId})), -1) + 1`;
  return {
    trigger,
    round,
    attempt: 1,
    nextAttemptAt: sql`greatest(now(), ${pausedUntil}::timestamptz)`,
  };
}

/**
 * The columns of the attempt after `previous` (a failed one) in the same round: its trigger and
 * round, read from the row, and the next attempt number, due at `dueAt` (the schedule's delay, or
 * the receiver's pause when that is later; @oisr/contract's afterFailedAttempt decides).
 */
export function nextAttemptOf(previous: { accountId: string; id: string; attempt: number }, dueAt: string) {
  const column = (name: "trigger" | "round") =>
    sql`(select ${sql.identifier(name)} from webhook_deliveries
          where account_id = ${previous.accountId} and id = ${previous.id} and created_at = oisr_ulid_time(${previous.id}))`;
  return {
    trigger: column("trigger"),
    round: column("round"),
    attempt: previous.attempt + 1,
    nextAttemptAt: dueAt,
  };
}

export type SubscriptionRow = typeof webhookSubscriptions.$inferSelect;

/**
 * Locks the subscription row: the first lock of every transaction that writes a subscription's
 * attempts after reading its state (index.ts, lock order). Rounds are numbered under it.
 */
export async function lockSubscription(
  tx: Tx,
  accountId: string,
  id: string,
): Promise<SubscriptionRow | undefined> {
  const [row] = await tx
    .select()
    .from(webhookSubscriptions)
    .where(and(eq(webhookSubscriptions.accountId, accountId), eq(webhookSubscriptions.id, id)))
    .for("update");
  return row;
}
