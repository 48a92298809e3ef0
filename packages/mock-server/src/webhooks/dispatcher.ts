// Webhook events and their delivery. Every event is kept for `events()`; each enabled subscription
// of the account that subscribed to its type (and existed when it happened) gets a delivery:
// signed, POSTed with `fetch`, retried on the configured schedule (on the mock clock), and a
// `410 Gone` disables the subscription: @oisr/contract's signing, URL rules and retry policy, as
// on the server. Like the server, a receiver's `429`/`503` with `Retry-After` pauses its
// subscription, and at most `subscriptionConcurrency` attempts per subscription are in flight.

import type { WebhookEventBody } from "@oisr/contract";
import {
  type AttemptResult,
  afterFailedAttempt,
  answeredAttempt,
  classifyWebhookUrl,
  deliveryTraceparent,
  recordedStatus,
  responseSnippet,
  SECRET_ROTATION_OVERLAP_MS,
  signedWebhookHeaders,
  TEST_EVENT_TYPE,
  testEventObject,
  unansweredAttemptError,
  WEBHOOK_RESPONSE_BODY_MAX_BYTES,
  WEBHOOK_USER_AGENT,
  webhookEventBody,
} from "@oisr/contract";
import type { DomainEvent } from "@oisr/domain";
import type { Clock } from "../clock.ts";
import type { ResolvedOptions } from "../options.ts";
import type { Account, Delivery, Recovery, Subscription } from "../store/account.ts";
import type { MockStore } from "../store/store.ts";
import { queueRecovery } from "./recovery.ts";

/** The retry schedule exactly: no jitter, so tests that advance the mock clock know when to look. */
const NO_JITTER = () => 0.5;

export class WebhookDispatcher {
  readonly #store: MockStore;
  readonly #clock: Clock;
  readonly #options: ResolvedOptions["webhooks"];
  readonly #inFlight = new Set<Promise<void>>();
  readonly #payloads = new Map<string, WebhookEventBody>();
  /** The trace id of the call that caused each event: every delivery of it sends a traceparent with it. */
  readonly #traceIds = new Map<string, string>();
  /** Recoveries still `running`: each queues its window on the next tick (or `settle()`). */
  readonly #recoveries = new Set<{ account: Account; recovery: Recovery }>();
  #generation = 0;

  constructor(store: MockStore, clock: Clock, options: ResolvedOptions["webhooks"]) {
    this.#store = store;
    this.#clock = clock;
    this.#options = options;
  }

  /**
   * Records the events of one applied request and fans them out; `traceId` and `apiKeyId` are the
   * request's.
   */
  emit(
    account: Account,
    events: DomainEvent[],
    traceId?: string,
    apiKeyId: string | null = null,
  ): WebhookEventBody[] {
    return events.map((e) => {
      const event = this.#record(account, e.type, e.return, this.#clock.now(), traceId, apiKeyId);
      this.#fanOut(account, event);
      return event;
    });
  }

  /** Records one event of the account (a request's `request.<status>`, created `at` its completion) and fans it out. */
  publish(
    account: Account,
    type: string,
    object: unknown,
    at: number,
    traceId?: string,
    apiKeyId: string | null = null,
  ): WebhookEventBody {
    const event = this.#record(account, type, object, at, traceId, apiKeyId);
    this.#fanOut(account, event);
    return event;
  }

  /**
   * `POST …/test`: a `webhook.test` event for this subscription only, whatever its events and
   * status; `apiKeyId` is the calling key's.
   */
  test(account: Account, subscription: Subscription, traceId: string, apiKeyId: string): Delivery {
    const event = this.#record(
      account,
      TEST_EVENT_TYPE,
      testEventObject(subscription.id),
      this.#clock.now(),
      traceId,
      apiKeyId,
    );
    return this.#newDelivery(account, subscription, event, 1, this.#clock.now(), "test");
  }

  /** A new sending of a recorded event (`POST …/retry`, a recovery): attempt 1, the whole schedule. */
  resend(account: Account, s: Subscription, event: WebhookEventBody, trigger: "retry" | "recover"): Delivery {
    this.#payloads.set(event.id, event);
    return this.#newDelivery(account, s, event, 1, this.#clock.now(), trigger);
  }

  /** `POST …/recover`: the recovery queues its window on the next tick, as the server's dispatcher would. */
  startRecovery(account: Account, recovery: Recovery): void {
    const entry = { account, recovery };
    this.#recoveries.add(entry);
    const generation = this.#generation;
    this.#clock.at(this.#clock.now(), () => {
      if (generation === this.#generation) this.#runRecoveries();
    });
  }

  #runRecoveries(): void {
    for (const entry of this.#recoveries) {
      this.#recoveries.delete(entry);
      queueRecovery(entry.account, entry.recovery, this.#clock.now(), (s, event) =>
        this.resend(entry.account, s, event, "recover"),
      );
    }
  }

  /** The secrets to sign with: the current one, then the one a rotation replaced less than 24 h ago. */
  secretsOf(subscription: Subscription): string[] {
    const previousLive =
      subscription.previousSecret !== null && (subscription.previousSecretExpiresAt ?? 0) > this.#clock.now();
    return previousLive
      ? [subscription.secret, subscription.previousSecret as string]
      : [subscription.secret];
  }

  rotate(subscription: Subscription, newSecret: string): void {
    const now = this.#clock.now();
    subscription.previousSecret = subscription.secret;
    subscription.previousSecretExpiresAt = now + SECRET_ROTATION_OVERLAP_MS;
    subscription.secret = newSecret;
    subscription.updatedAt = now;
  }

  /**
   * Drops the attempts not yet made of a subscription that stopped receiving, so re-enabling it does
   * not flood the receiver with stale events; failed attempts before them get no next attempt.
   */
  dropPending(account: Account, subscriptionId: string): void {
    for (let i = account.deliveries.length - 1; i >= 0; i--) {
      const d = account.deliveries[i] as Delivery;
      if (d.subscriptionId !== subscriptionId) continue;
      if (d.status === "pending" && !d.inFlight) account.deliveries.splice(i, 1);
      else if (d.status === "failed") d.nextAttemptAt = null;
    }
  }

  /** Makes every attempt that is due now, and resolves once all attempts in flight are recorded. */
  async settle(): Promise<void> {
    for (;;) {
      this.#runRecoveries();
      if (this.#options.deliver) {
        const now = this.#clock.now();
        for (const account of this.#store.accounts.values()) {
          for (const d of account.deliveries) {
            if (d.status === "pending" && !d.inFlight && (d.nextAttemptAt ?? 0) <= now)
              this.#start(account, d);
          }
        }
      }
      if (this.#inFlight.size === 0) return;
      await Promise.allSettled([...this.#inFlight]);
    }
  }

  reset(): void {
    this.#generation++;
    this.#payloads.clear();
    this.#traceIds.clear();
    this.#recoveries.clear();
  }

  #record(
    account: Account,
    type: string,
    object: unknown,
    now = this.#clock.now(),
    traceId?: string,
    apiKeyId: string | null = null,
  ): WebhookEventBody {
    const event = webhookEventBody(this.#store.newId("evt"), type, now, apiKeyId, structuredClone(object));
    if (traceId) this.#traceIds.set(event.id, traceId);
    account.events.push({ event, accountId: account.id, at: now });
    this.#payloads.set(event.id, event);
    return event;
  }

  #fanOut(account: Account, event: WebhookEventBody): void {
    const now = this.#clock.now();
    for (const s of account.subscriptions.values()) {
      // A subscription receives what happens after it was made.
      if (s.status === "enabled" && s.events.includes(event.type) && s.createdAt <= now) {
        this.#newDelivery(account, s, event, 1, now, "event");
      }
    }
  }

  #newDelivery(
    account: Account,
    s: Subscription,
    event: WebhookEventBody,
    attempt: number,
    asked: number,
    trigger: Delivery["trigger"],
  ): Delivery {
    // A subscription its receiver paused (Retry-After) gets nothing before the pause ends.
    const dueAt = Math.max(asked, s.pausedUntil ?? 0);
    const delivery: Delivery = {
      id: this.#store.newId("whd"),
      subscriptionId: s.id,
      eventId: event.id,
      eventType: event.type,
      trigger,
      attempt,
      status: "pending",
      responseStatus: null,
      responseContentType: null,
      responseBody: null,
      error: null,
      retryAfterSeconds: null,
      durationMs: null,
      attemptedAt: null,
      nextAttemptAt: dueAt,
      createdAt: this.#clock.now(),
      inFlight: false,
    };
    account.deliveries.push(delivery);
    if (this.#options.deliver) {
      const generation = this.#generation;
      this.#clock.at(dueAt, () => {
        if (generation === this.#generation) this.#start(account, delivery);
      });
    }
    return delivery;
  }

  /**
   * Starts an attempt that is due, unless its subscription is paused or already has
   * `subscriptionConcurrency` attempts in flight: then the pause's end or a finishing attempt
   * starts it (#startDue). Timers of an attempt moved later by a pause fire early and do nothing.
   */
  #start(account: Account, delivery: Delivery): void {
    if (delivery.inFlight || delivery.status !== "pending") return;
    const now = this.#clock.now();
    if ((delivery.nextAttemptAt ?? 0) > now) return;
    const s = account.subscriptions.get(delivery.subscriptionId);
    if ((s?.pausedUntil ?? 0) > now) return;
    let busy = 0;
    for (const d of account.deliveries)
      if (d.inFlight && d.subscriptionId === delivery.subscriptionId) busy++;
    if (busy >= this.#options.subscriptionConcurrency) return;
    const run = this.#attempt(account, delivery).finally(() => {
      this.#inFlight.delete(run);
      this.#startDue(account, delivery.subscriptionId);
    });
    this.#inFlight.add(run);
  }

  /** Starts a subscription's due attempts, oldest first, as far as its free slots go. */
  #startDue(account: Account, subscriptionId: string): void {
    if (!this.#options.deliver) return;
    const now = this.#clock.now();
    const due = account.deliveries
      .filter(
        (d) =>
          d.subscriptionId === subscriptionId &&
          d.status === "pending" &&
          !d.inFlight &&
          (d.nextAttemptAt ?? 0) <= now,
      )
      .sort((a, b) => (a.nextAttemptAt ?? 0) - (b.nextAttemptAt ?? 0));
    for (const d of due) this.#start(account, d);
  }

  /**
   * A receiver asked for a pause until `until`: the subscription's attempts not yet made move to
   * its end, so the deliveries log shows the wait, as on the server.
   */
  #pause(account: Account, s: Subscription, until: number): void {
    if (until <= (s.pausedUntil ?? 0)) return;
    s.pausedUntil = until;
    for (const d of account.deliveries) {
      if (
        d.subscriptionId === s.id &&
        d.status === "pending" &&
        !d.inFlight &&
        (d.nextAttemptAt ?? 0) < until
      )
        d.nextAttemptAt = until;
    }
    if (this.#options.deliver) {
      const generation = this.#generation;
      this.#clock.at(until, () => {
        if (generation === this.#generation) this.#startDue(account, s.id);
      });
    }
  }

  async #attempt(account: Account, delivery: Delivery): Promise<void> {
    const subscription = account.subscriptions.get(delivery.subscriptionId);
    // Deleted, or dropped when its subscription was disabled.
    if (!subscription || !account.deliveries.includes(delivery) || delivery.status !== "pending") return;
    if (subscription.status !== "enabled" && delivery.eventType !== TEST_EVENT_TYPE) return;
    const event = this.#payloads.get(delivery.eventId);
    if (!event) return;
    delivery.inFlight = true;
    let result: AttemptResult;
    try {
      result = await this.#send(subscription, event);
    } finally {
      delivery.inFlight = false;
    }
    if (account.subscriptions.get(subscription.id) !== subscription) return;
    this.#recordAttempt(account, subscription, delivery, event, result);
  }

  async #send(subscription: Subscription, event: WebhookEventBody): Promise<AttemptResult> {
    const started = typeof performance !== "undefined" ? performance.now() : Date.now();
    const elapsed = () => (typeof performance !== "undefined" ? performance.now() : Date.now()) - started;
    const check = classifyWebhookUrl(subscription.url, this.#options.allowPrivateNetworks);
    if (!check.ok) return { ok: false, error: `url not allowed: ${check.reason}`, durationMs: elapsed() };
    const body = JSON.stringify(event);
    const fetchFn = this.#options.fetch ?? globalThis.fetch;
    try {
      const headers = await signedWebhookHeaders({
        id: event.id,
        body,
        secrets: this.secretsOf(subscription),
        now: this.#clock.now(),
      });
      const response = await fetchFn(subscription.url, {
        method: "POST",
        headers: {
          ...headers,
          "user-agent": WEBHOOK_USER_AGENT,
          traceparent: deliveryTraceparent(this.#traceIds.get(event.id)),
        },
        body,
        redirect: "manual",
        signal: AbortSignal.timeout(this.#options.timeoutMs),
      });
      // An HTTP-date in Retry-After is the receiver's wall clock, so it is read against real time;
      // the seconds it gives are then waited on the mock clock.
      const answered = answeredAttempt(
        response.status,
        elapsed(),
        response.headers.get("retry-after"),
        Date.now(),
      );
      // The start of the body, as the server keeps it; the rest is never read.
      const head = await leadingBytes(response.body, WEBHOOK_RESPONSE_BODY_MAX_BYTES);
      return { ...answered, response: responseSnippet(head, response.headers.get("content-type")) };
    } catch (err) {
      const name = (err as { name?: string })?.name;
      const timedOut = name === "TimeoutError" || name === "AbortError";
      return { ok: false, error: unansweredAttemptError(err, timedOut), durationMs: elapsed() };
    }
  }

  #recordAttempt(
    account: Account,
    s: Subscription,
    d: Delivery,
    event: WebhookEventBody,
    result: AttemptResult,
  ): void {
    const now = this.#clock.now();
    d.attemptedAt = now;
    d.durationMs = Math.max(0, Math.round(result.durationMs));
    d.responseStatus = recordedStatus(result.status);
    d.responseContentType = result.response?.contentType ?? null;
    d.responseBody = result.response?.body ?? null;
    if (result.ok) {
      d.status = "succeeded";
      d.error = null;
      d.nextAttemptAt = null;
      s.consecutiveFailures = 0;
      s.failingSince = null;
      return;
    }
    s.failingSince ??= now;
    d.retryAfterSeconds = result.retryAfterSeconds ?? null;
    const after = afterFailedAttempt({
      status: result.status,
      retryAfterSeconds: result.retryAfterSeconds,
      attempt: d.attempt,
      testEvent: d.eventType === TEST_EVENT_TYPE,
      subscriptionEnabled: s.status === "enabled",
      consecutiveFailures: s.consecutiveFailures,
      failingSince: s.failingSince,
      now,
      schedule: this.#options.retrySchedule,
      random: NO_JITTER,
    });
    s.consecutiveFailures = after.consecutiveFailures;
    if (after.pauseMs > 0) this.#pause(account, s, now + after.pauseMs);
    // A pause asked for now, or one still running from an earlier answer, holds this retry back too.
    const next = after.retryDelayMs === null ? null : Math.max(now + after.retryDelayMs, s.pausedUntil ?? 0);
    d.status = "failed";
    d.error = result.error;
    d.nextAttemptAt = next;
    if (next !== null) this.#newDelivery(account, s, event, d.attempt + 1, next, d.trigger);
    if (after.disable) {
      s.status = "disabled";
      s.updatedAt = now;
      this.dropPending(account, s.id);
    }
  }
}

/**
 * Up to `limit` bytes from the start of a body; then the stream is cancelled, so the rest is never
 * read. A body that fails midway (the attempt's timeout) gives what came before.
 */
async function leadingBytes(body: ReadableStream<Uint8Array> | null, limit: number): Promise<Uint8Array> {
  if (!body) return new Uint8Array(0);
  const reader = body.getReader();
  const out = new Uint8Array(limit);
  let size = 0;
  try {
    while (size < limit) {
      const { done, value } = await reader.read();
      if (done) break;
      const kept = value.subarray(0, limit - size);
      out.set(kept, size);
      size += kept.length;
    }
  } catch {
    // Cut off: keep what came.
  } finally {
    // Not awaited: under msw 2 (2.12.14, @mswjs/interceptors 0.41) cancelling a mocked response's
    // body returns a promise that never settles, and awaiting it hung every later delivery. The
    // cancel still stops the stream; nothing here needs to know when it is done.
    reader.cancel().catch(() => {});
  }
  return out.subarray(0, size);
}
