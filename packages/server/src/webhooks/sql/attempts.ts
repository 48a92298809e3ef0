// Attempts as a queue (the dispatcher's statements): pending rows are claimed under a lease with
// SKIP LOCKED (several dispatchers never make the same attempt at once) and the outcome is recorded
// only by the lease holder (a dispatcher whose lease ran out records nothing; the attempt is made
// again, so delivery is at-least-once). A failed attempt schedules the next one as a new pending row.
import {
  type AttemptResult,
  afterFailedAttempt,
  type DisablePolicy,
  recordedStatus,
  TEST_EVENT_TYPE,
} from "@oisr/contract";
import { and, eq, lt, sql } from "drizzle-orm";
import { WEBHOOK_PAUSES_CHANNEL } from "../../db/channels.ts";
import type { Database, Tx } from "../../db/client.ts";
import { webhookDeliveries, webhookSubscriptions } from "../../db/webhook-schema.ts";
import { newTimedId } from "../../store/ids.ts";
import { attemptsDueInMs, claimDue } from "./claim.ts";
import { createDeliveryHistory } from "./history.ts";
import { type PauseNotice, pauseNotice } from "./pauses.ts";
import { nextAttemptOf } from "./rounds.ts";
import { dropPendingDeliveries } from "./subscriptions.ts";
import { recordSucceeded, type Succeeded } from "./succeeded.ts";

export interface ClaimedDelivery {
  accountId: string;
  id: string;
  subscriptionId: string;
  eventId: string;
  eventType: string;
  attempt: number;
  url: string;
  /** Secrets to sign with: the current one, then the one replaced less than 24 h ago. */
  secrets: string[];
  payload: unknown;
  /** The apply span that wrote the event, when tracing was on: the attempt's span continues it. */
  traceparent: string | null;
}

export type { AttemptResult } from "@oisr/contract";
export type { PauseNotice };

export interface RecordPolicy extends DisablePolicy {
  schedule: readonly number[];
}

/**
 * The error of an attempt ended because its event is gone: it waited past the retention period
 * (a receiver's long pause, a dispatcher down), and retention dropped the event's partition.
 */
export { EVENT_GONE_ERROR } from "./claim.ts";

export type RecordOutcome = "succeeded" | "retry" | "failed" | "lease_lost";

/**
 * Moves the subscription's other attempts not yet made to the end of a pause, so the deliveries
 * log shows when each will be made (claim() would hold them back anyway). Attempts claimed by a
 * dispatcher are left to it: one not sent yet is put back (putBack) when the pause reaches it
 * (WEBHOOK_PAUSES_CHANNEL), one already sent finishes and its retry comes after the pause.
 */
async function holdPending(tx: Tx, claimed: ClaimedDelivery, until: string): Promise<void> {
  await tx
    .update(webhookDeliveries)
    .set({ nextAttemptAt: until })
    .where(
      and(
        eq(webhookDeliveries.accountId, claimed.accountId),
        eq(webhookDeliveries.subscriptionId, claimed.subscriptionId),
        eq(webhookDeliveries.status, "pending"),
        lt(webhookDeliveries.nextAttemptAt, until),
        sql`(${webhookDeliveries.leaseUntil} is null or ${webhookDeliveries.leaseUntil} < now())`,
      ),
    );
}

export function createDeliveryStore(database: Database, workerId: string) {
  const { db } = database;
  const subscriptionKey = (c: ClaimedDelivery) =>
    and(eq(webhookSubscriptions.accountId, c.accountId), eq(webhookSubscriptions.id, c.subscriptionId));

  async function disable(tx: Tx, claimed: ClaimedDelivery, reason: string): Promise<void> {
    await tx
      .update(webhookSubscriptions)
      .set({ status: "disabled", disabledReason: reason, updatedAt: new Date().toISOString() })
      .where(subscriptionKey(claimed));
    await dropPendingDeliveries(tx, claimed.accountId, claimed.subscriptionId);
  }

  return {
    /**
     * Claims up to `limit` due attempts, at most `perSubscription` in flight per subscription
     * (counting leases already held). Disabled subscriptions get test events only.
     */
    async claim(limit: number, perSubscription: number, leaseMs: number): Promise<ClaimedDelivery[]> {
      const rows = await claimDue(database, workerId, limit, perSubscription, leaseMs);
      return rows.map((r) => ({
        accountId: r.account_id,
        id: r.id,
        subscriptionId: r.subscription_id,
        eventId: r.event_id,
        eventType: r.event_type,
        attempt: r.attempt,
        url: r.url,
        secrets: r.previous_secret && r.previous_live ? [r.secret, r.previous_secret] : [r.secret],
        payload: r.payload,
        traceparent: r.traceparent,
      }));
    },

    /**
     * Records one attempt and, after a failure, schedules the next one (or none once the schedule
     * is spent). A 410, or a long failure streak (@oisr/contract's webhook policy), disables the subscription.
     */
    async record(
      claimed: ClaimedDelivery,
      result: AttemptResult,
      policy: RecordPolicy,
      now = new Date(),
    ): Promise<RecordOutcome> {
      return db.transaction(async (tx) => {
        // Subscription first, then the attempt: the same lock order as PATCH and DELETE.
        const [subscription] = await tx
          .select({
            status: webhookSubscriptions.status,
            failures: webhookSubscriptions.consecutiveFailures,
            since: webhookSubscriptions.failingSince,
            pausedUntilMs: sql<
              string | number | null
            >`extract(epoch from ${webhookSubscriptions.pausedUntil}) * 1000`,
          })
          .from(webhookSubscriptions)
          .where(subscriptionKey(claimed))
          .for("update");
        const owned = await database.rows<{ id: string }>(
          sql`select id from webhook_deliveries
               where account_id = ${claimed.accountId} and id = ${claimed.id} and created_at = oisr_ulid_time(${claimed.id})
                 and status = 'pending' and lease_owner = ${workerId}
               for update`,
          tx,
        );
        if (!subscription || owned.length === 0) return "lease_lost";
        const nowIso = now.toISOString();
        const attempt = {
          leaseOwner: null,
          leaseUntil: null,
          attemptedAt: nowIso,
          responseStatus: recordedStatus(result.status),
          // responseSnippet's bounded text, never more: an answer's head, for the deliveries log.
          responseContentType: result.response?.contentType ?? null,
          responseBody: result.response?.body ?? null,
          retryAfterSeconds: result.ok ? null : (result.retryAfterSeconds ?? null),
          durationMs: Math.max(0, Math.round(result.durationMs)),
        };
        const thisAttempt = and(
          eq(webhookDeliveries.accountId, claimed.accountId),
          eq(webhookDeliveries.id, claimed.id),
          sql`${webhookDeliveries.createdAt} = oisr_ulid_time(${claimed.id})`,
        );

        if (result.ok) {
          await tx
            .update(webhookDeliveries)
            .set({ ...attempt, status: "succeeded", error: null, nextAttemptAt: null })
            .where(thisAttempt);
          await tx
            .update(webhookSubscriptions)
            .set({ consecutiveFailures: 0, failingSince: null })
            .where(subscriptionKey(claimed));
          return "succeeded";
        }
        const failingSince = subscription.since ?? nowIso;
        const {
          consecutiveFailures,
          disable: disableNow,
          retryDelayMs,
          pauseMs,
        } = afterFailedAttempt({
          status: result.status,
          retryAfterSeconds: result.retryAfterSeconds,
          attempt: claimed.attempt,
          testEvent: claimed.eventType === TEST_EVENT_TYPE,
          subscriptionEnabled: subscription.status === "enabled",
          consecutiveFailures: subscription.failures,
          failingSince,
          now,
          schedule: policy.schedule,
          policy,
        });
        // A pause asked for now, or one still running from an earlier answer, holds this retry back too.
        const pausedBefore = subscription.pausedUntilMs === null ? 0 : Number(subscription.pausedUntilMs);
        const pausedNow = pauseMs > 0 ? now.getTime() + pauseMs : 0;
        const pausedUntil = Math.max(pausedBefore, pausedNow);
        const next =
          retryDelayMs === null
            ? null
            : new Date(Math.max(now.getTime() + retryDelayMs, pausedUntil)).toISOString();

        await tx
          .update(webhookDeliveries)
          .set({ ...attempt, status: "failed", error: result.error, nextAttemptAt: next })
          .where(thisAttempt);
        const lengthens = pausedNow > pausedBefore;
        await tx
          .update(webhookSubscriptions)
          .set({
            consecutiveFailures,
            failingSince,
            ...(lengthens ? { pausedUntil: new Date(pausedNow).toISOString() } : {}),
          })
          .where(subscriptionKey(claimed));
        if (lengthens) {
          const until = new Date(pausedNow).toISOString();
          await holdPending(tx, claimed, until);
          // Delivered at commit, to every dispatcher (this one included): attempts of this
          // subscription they claimed and have not sent yet go back (putBack) instead of out.
          await database.rows(
            sql`select pg_notify(${WEBHOOK_PAUSES_CHANNEL}, ${pauseNotice.write({ ...claimed, untilMs: pausedNow })})`,
            tx,
          );
        }
        if (next !== null) {
          await tx
            .insert(webhookDeliveries)
            .values({
              accountId: claimed.accountId,
              ...newTimedId("whd"),
              subscriptionId: claimed.subscriptionId,
              eventId: claimed.eventId,
              eventType: claimed.eventType,
              ...nextAttemptOf(claimed, next),
            })
            .onConflictDoNothing();
        }
        if (disableNow) await disable(tx, claimed, disableNow);
        return next === null ? "failed" : "retry";
      });
    },

    /**
     * Records successful attempts in one transaction (succeeded.ts); returns the ids recorded, the
     * others lost their lease (record() would say lease_lost).
     */
    recordSucceeded: (done: readonly Succeeded[]) => recordSucceeded(database, workerId, done),

    /**
     * Gives a claimed attempt back, not sent, counted nowhere: due again at once after a shutdown cut
     * it short, or when its subscription's pause ends (`pausedUntilMs`, the receiver's Retry-After).
     */
    async release(claimed: ClaimedDelivery, pausedUntilMs?: number): Promise<void> {
      const due =
        pausedUntilMs === undefined ? sql`now()` : sql`${new Date(pausedUntilMs).toISOString()}::timestamptz`;
      await database.rows(
        sql`update webhook_deliveries set lease_owner = null, lease_until = null, next_attempt_at = greatest(now(), ${due})
             where account_id = ${claimed.accountId} and id = ${claimed.id} and created_at = oisr_ulid_time(${claimed.id})
               and status = 'pending' and lease_owner = ${workerId}`,
      );
    },

    /** Milliseconds until an attempt or an undispatched event needs attention; null when none will. */
    async nextDueInMs(): Promise<number | null> {
      const [row] = await database.rows<{ undispatched: boolean }>(
        sql`select exists (select 1 from events where dispatched_at is null) as undispatched`,
      );
      if (row?.undispatched) return 0;
      return attemptsDueInMs(database);
    },
    ...createDeliveryHistory(database),
  };
}

export type DeliveryStore = ReturnType<typeof createDeliveryStore>;
