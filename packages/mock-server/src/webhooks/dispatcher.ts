// Webhook events and their delivery. Every event is kept for `events()`; each enabled subscription
// of the account that subscribed to its type (and existed when it happened) gets a delivery:
// signed, POSTed with `fetch`, retried on the configured schedule (on the mock clock), and a
// `410 Gone` disables the subscription, as on the server.
import type { DomainEvent } from "@oisr/domain";
import type { Clock } from "../clock.ts";
import type { ResolvedOptions } from "../options.ts";
import type { Account, Delivery, Subscription, WebhookEvent } from "../store/account.ts";
import type { MockStore } from "../store/store.ts";
import { signedHeaders } from "./signing.ts";
import { checkWebhookUrl } from "./url-check.ts";

export const TEST_EVENT_TYPE = "webhook.test";
const ROTATION_OVERLAP_MS = 24 * 3_600_000;
/** The server's policy: this many consecutive failures over at least this long disable a subscription. */
const DISABLE_AFTER_FAILURES = 20;
const DISABLE_AFTER_MS = 24 * 3_600_000;

type AttemptResult =
  | { ok: true; status: number; durationMs: number }
  | { ok: false; status?: number; error: string; durationMs: number };

const STATUS_TEXT: Record<number, string> = {
  400: "Bad Request",
  401: "Unauthorized",
  403: "Forbidden",
  404: "Not Found",
  408: "Request Timeout",
  410: "Gone",
  429: "Too Many Requests",
  500: "Internal Server Error",
  502: "Bad Gateway",
  503: "Service Unavailable",
  504: "Gateway Timeout",
};

export class WebhookDispatcher {
  readonly #store: MockStore;
  readonly #clock: Clock;
  readonly #options: ResolvedOptions["webhooks"];
  readonly #inFlight = new Set<Promise<void>>();
  readonly #payloads = new Map<string, WebhookEvent>();
  #generation = 0;

  constructor(store: MockStore, clock: Clock, options: ResolvedOptions["webhooks"]) {
    this.#store = store;
    this.#clock = clock;
    this.#options = options;
  }

  /** Records the events of one applied request and fans them out. */
  emit(account: Account, events: DomainEvent[]): WebhookEvent[] {
    return events.map((e) => {
      const event = this.#record(account, e.type, e.return);
      this.#fanOut(account, event);
      return event;
    });
  }

  /** `POST …/test`: a `webhook.test` event for this subscription only, whatever its events and status. */
  test(account: Account, subscription: Subscription): Delivery {
    const event = this.#record(account, TEST_EVENT_TYPE, {
      subscription_id: subscription.id,
      message: "This is a test event from OISR.",
    });
    return this.#newDelivery(account, subscription, event, 1, this.#clock.now());
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
    subscription.previousSecretExpiresAt = now + ROTATION_OVERLAP_MS;
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
  }

  #record(account: Account, type: string, object: unknown): WebhookEvent {
    const now = this.#clock.now();
    const event: WebhookEvent = {
      id: this.#store.newId("evt"),
      type,
      created_at: new Date(now).toISOString(),
      data: { object: structuredClone(object) },
    };
    account.events.push({ event, accountId: account.id, at: now });
    this.#payloads.set(event.id, event);
    return event;
  }

  #fanOut(account: Account, event: WebhookEvent): void {
    const now = this.#clock.now();
    for (const s of account.subscriptions.values()) {
      // A subscription receives what happens after it was made.
      if (s.status === "enabled" && s.events.includes(event.type) && s.createdAt <= now) {
        this.#newDelivery(account, s, event, 1, now);
      }
    }
  }

  #newDelivery(
    account: Account,
    s: Subscription,
    event: WebhookEvent,
    attempt: number,
    dueAt: number,
  ): Delivery {
    const delivery: Delivery = {
      id: this.#store.newId("whd"),
      subscriptionId: s.id,
      eventId: event.id,
      eventType: event.type,
      attempt,
      status: "pending",
      responseStatus: null,
      error: null,
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

  #start(account: Account, delivery: Delivery): void {
    if (delivery.inFlight || delivery.status !== "pending") return;
    const run = this.#attempt(account, delivery).finally(() => this.#inFlight.delete(run));
    this.#inFlight.add(run);
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

  async #send(subscription: Subscription, event: WebhookEvent): Promise<AttemptResult> {
    const started = typeof performance !== "undefined" ? performance.now() : Date.now();
    const elapsed = () => (typeof performance !== "undefined" ? performance.now() : Date.now()) - started;
    const check = checkWebhookUrl(subscription.url, this.#options.allowPrivateNetworks);
    if (!check.ok) return { ok: false, error: `url not allowed: ${check.reason}`, durationMs: elapsed() };
    const body = JSON.stringify(event);
    const fetchFn = this.#options.fetch ?? globalThis.fetch;
    try {
      const headers = await signedHeaders(event.id, body, this.secretsOf(subscription), this.#clock.now());
      const response = await fetchFn(subscription.url, {
        method: "POST",
        headers: { ...headers, "user-agent": "OISR-Webhooks/2" },
        body,
        redirect: "manual",
        signal: AbortSignal.timeout(this.#options.timeoutMs),
      });
      await response.body?.cancel().catch(() => {});
      const status = response.status;
      if (status >= 200 && status < 300) return { ok: true, status, durationMs: elapsed() };
      const text = STATUS_TEXT[status] ?? "";
      return {
        ok: false,
        status: status || undefined,
        error: `HTTP ${status} ${text}`.trim(),
        durationMs: elapsed(),
      };
    } catch (err) {
      const name = (err as { name?: string })?.name;
      const error = name === "TimeoutError" || name === "AbortError" ? "timeout" : "request failed";
      return { ok: false, error, durationMs: elapsed() };
    }
  }

  #recordAttempt(
    account: Account,
    s: Subscription,
    d: Delivery,
    event: WebhookEvent,
    result: AttemptResult,
  ): void {
    const now = this.#clock.now();
    d.attemptedAt = now;
    d.durationMs = Math.max(0, Math.round(result.durationMs));
    d.responseStatus =
      result.status !== undefined && result.status >= 100 && result.status <= 599 ? result.status : null;
    if (result.ok) {
      d.status = "succeeded";
      d.error = null;
      d.nextAttemptAt = null;
      s.consecutiveFailures = 0;
      s.failingSince = null;
      return;
    }
    s.consecutiveFailures += 1;
    s.failingSince ??= now;
    const gone = result.status === 410;
    const disableNow =
      gone ||
      (s.status === "enabled" &&
        s.consecutiveFailures >= DISABLE_AFTER_FAILURES &&
        now - s.failingSince >= DISABLE_AFTER_MS);
    // A disabled subscription gets no retries; a test event sent to one may be retried.
    const mayRetry = !disableNow && (s.status === "enabled" || d.eventType === TEST_EVENT_TYPE);
    const delay = mayRetry ? this.#options.retrySchedule[d.attempt - 1] : undefined;
    const next = delay === undefined ? null : now + delay;
    d.status = "failed";
    d.error = result.error;
    d.nextAttemptAt = next;
    if (next !== null) this.#newDelivery(account, s, event, d.attempt + 1, next);
    if (disableNow) {
      s.status = "disabled";
      s.updatedAt = now;
      this.dropPending(account, s.id);
    }
  }
}
