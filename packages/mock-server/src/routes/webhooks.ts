// /webhook_subscriptions*: subscriptions, secret rotation, test events, the attempt history, and
// sending events again (retry one delivery's event, recover a window).
// URLs get the server's rules without its DNS step (browsers have none): a host name is taken as
// public, an IP literal or a localhost name is checked against the server's table.
import {
  classifyWebhookUrl,
  deliveryNotFound,
  eventNotFound,
  generateWebhookSecret,
  recoveryLocation,
  recoveryNotFound,
  recoveryWindow,
  retryRefused,
  subscriptionChange,
  subscriptionDisabled,
  subscriptionNotFound,
  toWebhookDelivery,
  toWebhookRecovery,
  toWebhookSubscription,
  uniqueEvents,
  webhookUrlNotAllowed,
} from "@oisr/contract";
import type { Recovery, Subscription } from "../store/account.ts";
import {
  basePath,
  idPage,
  ok,
  type RouteBase,
  type RouteContext,
  type RouteHandler,
  type RouteTable,
  retained,
} from "./context.ts";

function checkUrl(ctx: RouteBase, url: string): void {
  const check = classifyWebhookUrl(url, ctx.runtime.options.webhooks.allowPrivateNetworks);
  if (!check.ok) throw webhookUrlNotAllowed(check.reason);
}

/** The operations on one subscription, named by the path's `subscription_id`. */
type OnSubscription = {
  [Id in keyof RouteTable]: RouteContext<Id>["params"] extends { subscription_id: string } ? Id : never;
}[keyof RouteTable];

function found(ctx: RouteContext<OnSubscription>): Subscription {
  const id = ctx.params.subscription_id;
  const subscription = ctx.account.subscriptions.get(id);
  if (!subscription) throw subscriptionNotFound(id);
  return subscription;
}

const createWebhookSubscription: RouteHandler<"createWebhookSubscription"> = (ctx) => {
  const { body } = ctx;
  checkUrl(ctx, body.url);
  const now = ctx.runtime.clock.now();
  const subscription: Subscription = {
    id: ctx.runtime.store.newId("whs"),
    url: body.url,
    events: uniqueEvents(body.events),
    description: body.description ?? null,
    status: "enabled",
    secret: generateWebhookSecret(),
    previousSecret: null,
    previousSecretExpiresAt: null,
    consecutiveFailures: 0,
    failingSince: null,
    createdAt: now,
    updatedAt: now,
  };
  ctx.account.subscriptions.set(subscription.id, subscription);
  return {
    status: 201,
    body: toWebhookSubscription(subscription, true),
    headers: { Location: `${basePath(ctx.runtime)}/webhook_subscriptions/${subscription.id}` },
  };
};

const listWebhookSubscriptions: RouteHandler<"listWebhookSubscriptions"> = async (ctx) =>
  ok(await idPage(ctx, [...ctx.account.subscriptions.values()], (s) => toWebhookSubscription(s)));

const getWebhookSubscription: RouteHandler<"getWebhookSubscription"> = (ctx) =>
  ok(toWebhookSubscription(found(ctx)));

const updateWebhookSubscription: RouteHandler<"updateWebhookSubscription"> = (ctx) => {
  const patch = ctx.body;
  if (patch.url !== undefined) checkUrl(ctx, patch.url);
  const s = found(ctx);
  const change = subscriptionChange(s.status, patch);
  Object.assign(s, change, { updatedAt: ctx.runtime.clock.now() });
  if (change.status === "enabled") {
    s.consecutiveFailures = 0;
    s.failingSince = null;
  } else if (change.status === "disabled") {
    ctx.runtime.webhooks.dropPending(ctx.account, s.id);
  }
  return ok(toWebhookSubscription(s));
};

const deleteWebhookSubscription: RouteHandler<"deleteWebhookSubscription"> = (ctx) => {
  const s = found(ctx);
  ctx.account.subscriptions.delete(s.id);
  const deliveries = ctx.account.deliveries;
  for (let i = deliveries.length - 1; i >= 0; i--)
    if (deliveries[i]?.subscriptionId === s.id) deliveries.splice(i, 1);
  for (const r of ctx.account.recoveries.values())
    if (r.subscriptionId === s.id) ctx.account.recoveries.delete(r.id);
  return { status: 204 };
};

const rotateWebhookSecret: RouteHandler<"rotateWebhookSecret"> = (ctx) => {
  const s = found(ctx);
  ctx.runtime.webhooks.rotate(s, generateWebhookSecret());
  return ok(toWebhookSubscription(s, true));
};

const testWebhookSubscription: RouteHandler<"testWebhookSubscription"> = (ctx) => {
  const delivery = ctx.runtime.webhooks.test(ctx.account, found(ctx), ctx.traceId, ctx.apiKey.id);
  return { status: 202, body: toWebhookDelivery(delivery) };
};

const listWebhookDeliveries: RouteHandler<"listWebhookDeliveries"> = async (ctx) => {
  const s = found(ctx);
  return ok(
    await idPage(
      ctx,
      ctx.account.deliveries.filter((d) => d.subscriptionId === s.id),
      toWebhookDelivery,
    ),
  );
};

const retryWebhookDelivery: RouteHandler<"retryWebhookDelivery"> = (ctx) => {
  const s = found(ctx);
  const id = ctx.params.delivery_id;
  const d = ctx.account.deliveries.find((x) => x.id === id && x.subscriptionId === s.id);
  if (!d) throw deliveryNotFound(id);
  if (retryRefused(s.status, d.eventType)) throw subscriptionDisabled(s.id);
  // Past the retention the event is gone, as GET /events/{event_id} says.
  const recorded = ctx.account.events.find((e) => e.event.id === d.eventId);
  if (!recorded || !retained(ctx.runtime, recorded.at)) throw eventNotFound(d.eventId);
  const delivery = ctx.runtime.webhooks.resend(ctx.account, s, recorded.event, "retry");
  return { status: 202, body: toWebhookDelivery(delivery) };
};

const recoverWebhookSubscription: RouteHandler<"recoverWebhookSubscription"> = (ctx) => {
  const now = ctx.runtime.clock.now();
  // The window first, as the server checks it before reading the subscription.
  const window = recoveryWindow(ctx.body, new Date(now), ctx.runtime.options.requestRetentionDays);
  const s = found(ctx);
  if (s.status !== "enabled") throw subscriptionDisabled(s.id);
  const recovery: Recovery = {
    id: ctx.runtime.store.newId("whr"),
    subscriptionId: s.id,
    since: window.since.getTime(),
    until: window.until.getTime(),
    status: "running",
    eventsQueued: 0,
    createdAt: now,
    completedAt: null,
  };
  ctx.account.recoveries.set(recovery.id, recovery);
  ctx.runtime.webhooks.startRecovery(ctx.account, recovery);
  return {
    status: 202,
    body: toWebhookRecovery(recovery),
    headers: { Location: recoveryLocation(s.id, recovery.id, basePath(ctx.runtime)) },
  };
};

const getWebhookRecovery: RouteHandler<"getWebhookRecovery"> = (ctx) => {
  const s = found(ctx);
  const id = ctx.params.recovery_id;
  const r = ctx.account.recoveries.get(id);
  if (!r || r.subscriptionId !== s.id || !retained(ctx.runtime, r.createdAt)) throw recoveryNotFound(id);
  return ok(toWebhookRecovery(r));
};

export const webhookRoutes = {
  createWebhookSubscription,
  listWebhookSubscriptions,
  getWebhookSubscription,
  updateWebhookSubscription,
  deleteWebhookSubscription,
  rotateWebhookSecret,
  testWebhookSubscription,
  listWebhookDeliveries,
  retryWebhookDelivery,
  recoverWebhookSubscription,
  getWebhookRecovery,
} satisfies Partial<RouteTable>;
