// Re-sending events to a subscription (issue 17): the rules POST …/recover and POST …/retry share
// on the server and in the mock. What a sending is: a new round of attempts of the same event
// (same `webhook-id`) with the whole retry schedule; see WebhookDelivery.trigger in the spec.
import type { components } from "./generated/schema.d.ts";
import { HttpProblem, validationFailed } from "./problems.ts";
import { retentionCutoff } from "./retention.ts";
import { TEST_EVENT_TYPE } from "./webhook-subscription.ts";

type Schemas = components["schemas"];
export type WebhookRecovery = Schemas["WebhookRecovery"];
export type WebhookRecoveryCreate = Schemas["WebhookRecoveryCreate"];
export type DeliveryTrigger = Schemas["WebhookDelivery"]["trigger"];

/** Events a recovery queues per step: one short transaction each, so a big window blocks nothing. */
export const RECOVERY_BATCH_SIZE = 500;

/** The 409 of a recover or retry asked of a disabled subscription (test events excepted for retry). */
export const subscriptionDisabled = (id: string) =>
  new HttpProblem(
    409,
    "subscription_disabled",
    `Webhook subscription ${id} is disabled; enable it before sending events to it again.`,
  );

/** A retry of a delivery of this event type to a subscription of this status is refused with 409. */
export function retryRefused(subscriptionStatus: string, eventType: string): boolean {
  return subscriptionStatus !== "enabled" && eventType !== TEST_EVENT_TYPE;
}

export interface RecoveryWindow {
  since: Date;
  until: Date;
}

/**
 * The window of a recovery, checked: `until` defaults to `now` and is cut to `now` (a recovery
 * queues what exists when it runs, then completes; it does not wait for the future), must be later
 * than `since`, and `since` may be at most the retention period ago (older events no longer exist,
 * and a window that silently sends nothing would hide that). Throws the 400 to answer.
 */
export function recoveryWindow(
  body: WebhookRecoveryCreate,
  now: Date,
  retentionDays: number,
): RecoveryWindow {
  const since = new Date(body.since);
  const asked = body.until === undefined ? now : new Date(body.until);
  const until = asked > now ? now : asked;
  const oldest = retentionCutoff(now, retentionDays);
  if (since < oldest) {
    throw validationFailed([
      {
        pointer: "/since",
        code: "out_of_range",
        message: `since must be at most ${retentionDays} days ago (${oldest.toISOString()}): older events are no longer kept.`,
      },
    ]);
  }
  if (until <= since) {
    throw validationFailed([
      { pointer: "/until", code: "out_of_range", message: "until must be later than since." },
    ]);
  }
  return { since, until };
}

type Moment = string | number | Date;
const iso = (moment: Moment) => new Date(moment).toISOString();

export interface RecoveryRecord {
  id: string;
  subscriptionId: string;
  since: Moment;
  until: Moment;
  status: string;
  eventsQueued: number;
  createdAt: Moment;
  completedAt: Moment | null;
}

/** The API's WebhookRecovery. */
export function toWebhookRecovery(r: RecoveryRecord): WebhookRecovery {
  return {
    id: r.id,
    subscription_id: r.subscriptionId,
    since: iso(r.since),
    until: iso(r.until),
    status: r.status as WebhookRecovery["status"],
    events_queued: r.eventsQueued,
    created_at: iso(r.createdAt),
    completed_at: r.completedAt === null ? null : iso(r.completedAt),
  };
}

/** Where a recovery is followed (the 202's Location), under the API's base path. */
export const recoveryLocation = (subscriptionId: string, recoveryId: string, basePath = "/v2") =>
  `${basePath}/webhook_subscriptions/${subscriptionId}/recoveries/${recoveryId}`;

/** The 404 of a recovery id that is not the subscription's. */
export const recoveryNotFound = (id: string) =>
  new HttpProblem(404, "not_found", `No webhook recovery ${id} for this subscription.`);

/** The 404 of a delivery id that is not the subscription's. */
export const deliveryNotFound = (id: string) =>
  new HttpProblem(404, "not_found", `No webhook delivery ${id} for this subscription.`);
