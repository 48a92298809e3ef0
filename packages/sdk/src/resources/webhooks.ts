import type { ApiPromise } from "../internal/api-promise.ts";
import { type Context, init, type RequestOptions, unwrap } from "../internal/context.ts";
import type {
  ListWebhookDeliveriesParams,
  ListWebhookSubscriptionsParams,
  WebhookDelivery,
  WebhookDeliveryPage,
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
  };
}
