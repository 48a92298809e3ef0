// What a recovery queues, as the server's recovery job does: for its subscription, one new sending
// (trigger `recover`) of every recorded event created in [since, until) whose type the subscription
// receives when the recovery runs, `webhook.test` never. The mock queues the whole window in one
// step (its events are in memory), so a recovery is `running` from its 202 until the next tick.

import type { WebhookEventBody } from "@oisr/contract";
import { TEST_EVENT_TYPE } from "@oisr/contract";
import type { Account, Recovery, Subscription } from "../store/account.ts";

/** Queues a recovery's window with `resend` (the dispatcher's) and completes it. */
export function queueRecovery(
  account: Account,
  recovery: Recovery,
  now: number,
  resend: (s: Subscription, event: WebhookEventBody) => void,
): void {
  if (recovery.status !== "running") return;
  const s = account.subscriptions.get(recovery.subscriptionId);
  // Disabled or deleted meanwhile: it completes with what it queued (nothing), as on the server.
  if (s?.status === "enabled") {
    for (const { event, at } of account.events) {
      if (at < recovery.since || at >= recovery.until) continue;
      if (event.type === TEST_EVENT_TYPE || !s.events.includes(event.type)) continue;
      resend(s, event);
      recovery.eventsQueued++;
    }
  }
  recovery.status = "completed";
  recovery.completedAt = now;
}
