import type { ApiPromise } from "../internal/api-promise.ts";
import { type Context, init, type RequestOptions, unwrap } from "../internal/context.ts";
import type {
  ListWebhookDeliveriesParams,
  ListWebhookSubscriptionsParams,
  WebhookDelivery,
  WebhookDeliveryPage,
  WebhookRecovery,
  WebhookRecoveryCreate,
  WebhookSubscription,
  WebhookSubscriptionCreate,
  WebhookSubscriptionPage,
  WebhookSubscriptionUpdate,
  WebhookSubscriptionWithSecret,
} from "../types.ts";

export interface WebhooksResource {
  /**
   * Subscribes an https URL to return events. The response is the only time (with
   * `rotateSecret`) the signing secret is shown: store it.
   * @example
   * ```ts
   * const sub = await client.webhooks.create({ url: "https://example.com/webhooks/oisr", events: ["return.completed"] });
   * await secrets.put("OISR_WEBHOOK_SECRET", sub.secret);
   * ```
   */
  create(
    subscription: WebhookSubscriptionCreate,
    options?: RequestOptions,
  ): ApiPromise<WebhookSubscriptionWithSecret>;
  /** One page of subscriptions. @example `const { data } = await client.webhooks.list()` */
  list(
    params?: ListWebhookSubscriptionsParams,
    options?: RequestOptions,
  ): ApiPromise<WebhookSubscriptionPage>;
  /** One subscription. @example `const sub = await client.webhooks.get("whs_01J…")` */
  get(subscriptionId: string, options?: RequestOptions): ApiPromise<WebhookSubscription>;
  /** Changes url, events, description or status. @example `await client.webhooks.update(id, { status: "disabled" })` */
  update(
    subscriptionId: string,
    changes: WebhookSubscriptionUpdate,
    options?: RequestOptions,
  ): ApiPromise<WebhookSubscription>;
  /** Deletes a subscription. @example `await client.webhooks.delete(id)` */
  delete(subscriptionId: string, options?: RequestOptions): ApiPromise<void>;
  /**
   * Issues a new secret. For 24 h deliveries carry signatures with both secrets, so receivers can
   * switch without dropping events (`verifyWebhook` accepts a list of secrets).
   * @example
   * ```ts
   * const { secret } = await client.webhooks.rotateSecret(id);
   * ```
   */
  rotateSecret(subscriptionId: string, options?: RequestOptions): ApiPromise<WebhookSubscriptionWithSecret>;
  /** Sends a `webhook.test` event to the subscription. @example `await client.webhooks.test(id)` */
  test(subscriptionId: string, options?: RequestOptions): ApiPromise<WebhookDelivery>;
  /** Recent delivery attempts of a subscription. @example `const { data } = await client.webhooks.deliveries(id)` */
  deliveries(
    subscriptionId: string,
    params?: ListWebhookDeliveriesParams,
    options?: RequestOptions,
  ): ApiPromise<WebhookDeliveryPage>;
  /**
   * Sends every event of a window again to this subscription, after an outage longer than the
   * retry schedule: a background job queues a new delivery (trigger `recover`) of each event
   * created in `[since, until)` (`until` defaults to now) whose type the subscription receives.
   * Each keeps its `id` as `webhook-id`, so a receiver that deduplicates processes it once.
   * Resolves to the recovery, `running`; follow it with `getRecovery`.
   *
   * `since` may be at most the retention period (30 days by default) ago, else `ValidationError`.
   * A disabled subscription is a `ConflictError` (`code` `subscription_disabled`): `update` it to
   * `enabled` first. Not retried after a network error or a `5xx` other than `503`, since the
   * server may have started the recovery (a second one would queue every event once more); `408`,
   * `429` and `503` are retried as for every call.
   * @example
   * ```ts
   * const recovery = await client.webhooks.recover(id, { since: "2025-03-26T00:00:00Z" });
   * ```
   */
  recover(
    subscriptionId: string,
    window: WebhookRecoveryCreate,
    options?: RequestOptions,
  ): ApiPromise<WebhookRecovery>;
  /**
   * A recovery's progress: `running`, then `completed` with `events_queued` (their deliveries
   * may still be pending; see `deliveries`).
   * @example
   * ```ts
   * const { status, events_queued } = await client.webhooks.getRecovery(id, recovery.id);
   * ```
   */
  getRecovery(
    subscriptionId: string,
    recoveryId: string,
    options?: RequestOptions,
  ): ApiPromise<WebhookRecovery>;
  /**
   * Sends the event of one delivery attempt (any attempt, whatever its status) to this
   * subscription again, now: resolves to the new pending attempt (trigger `retry`, attempt 1,
   * same `event_id` and `webhook-id`), which gets the whole retry schedule.
   *
   * A disabled subscription is a `ConflictError` (`subscription_disabled`), except for
   * `webhook.test` events. Retried like `recover` (not after a network error or a `5xx` other
   * than `503`), so one call queues at most one new sending.
   * @example
   * ```ts
   * const { data } = await client.webhooks.deliveries(id);
   * const failed = data.find((d) => d.status === "failed");
   * if (failed) await client.webhooks.retryDelivery(id, failed.id);
   * ```
   */
  retryDelivery(
    subscriptionId: string,
    deliveryId: string,
    options?: RequestOptions,
  ): ApiPromise<WebhookDelivery>;
}

export function webhooksResource(ctx: Context): WebhooksResource {
  const path = (subscriptionId: string) => ({ path: { subscription_id: subscriptionId } });
  return {
    create: (subscription, options) =>
      unwrap(ctx.raw.POST("/webhook_subscriptions", { body: subscription, ...init(ctx, options) })),
    list: (params = {}, options) =>
      unwrap(ctx.raw.GET("/webhook_subscriptions", { params: { query: params }, ...init(ctx, options) })),
    get: (id, options) =>
      unwrap(
        ctx.raw.GET("/webhook_subscriptions/{subscription_id}", { params: path(id), ...init(ctx, options) }),
      ),
    update: (id, changes, options) =>
      unwrap(
        ctx.raw.PATCH("/webhook_subscriptions/{subscription_id}", {
          params: path(id),
          body: changes,
          ...init(ctx, options),
        }),
      ),
    delete: (id, options) =>
      unwrap<void>(
        ctx.raw.DELETE("/webhook_subscriptions/{subscription_id}", {
          params: path(id),
          ...init(ctx, options),
        }),
      ),
    rotateSecret: (id, options) =>
      unwrap(
        ctx.raw.POST("/webhook_subscriptions/{subscription_id}/rotate_secret", {
          params: path(id),
          ...init(ctx, options),
        }),
      ),
    test: (id, options) =>
      unwrap(
        ctx.raw.POST("/webhook_subscriptions/{subscription_id}/test", {
          params: path(id),
          ...init(ctx, options),
        }),
      ),
    deliveries: (id, params = {}, options) =>
      unwrap(
        ctx.raw.GET("/webhook_subscriptions/{subscription_id}/deliveries", {
          params: { ...path(id), query: params },
          ...init(ctx, options),
        }),
      ),
    recover: (id, window, options) =>
      unwrap(
        ctx.raw.POST("/webhook_subscriptions/{subscription_id}/recover", {
          params: path(id),
          body: window,
          ...init(ctx, options),
        }),
      ),
    getRecovery: (id, recovery_id, options) =>
      unwrap(
        ctx.raw.GET("/webhook_subscriptions/{subscription_id}/recoveries/{recovery_id}", {
          params: { path: { subscription_id: id, recovery_id } },
          ...init(ctx, options),
        }),
      ),
    retryDelivery: (id, delivery_id, options) =>
      unwrap(
        ctx.raw.POST("/webhook_subscriptions/{subscription_id}/deliveries/{delivery_id}/retry", {
          params: { path: { subscription_id: id, delivery_id } },
          ...init(ctx, options),
        }),
      ),
  };
}
