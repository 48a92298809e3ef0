// /webhook_subscriptions*: subscriptions, secret rotation, test events and the attempt history.
import { HttpProblem } from "../http/problem.ts";
import { type Subscription, toDelivery, toSubscription } from "../store/account.ts";
import { generateSecret } from "../webhooks/signing.ts";
import { checkWebhookUrl } from "../webhooks/url-check.ts";
import { basePath, limitOf, ok, type RouteContext, type RouteHandler } from "./context.ts";

interface SubscriptionPatch {
  url?: string;
  events?: string[];
  description?: string | null;
  status?: "enabled" | "disabled";
}

function checkUrl(ctx: RouteContext, url: string): void {
  const check = checkWebhookUrl(url, ctx.runtime.options.webhooks.allowPrivateNetworks);
  if (!check.ok) {
    throw new HttpProblem(400, "validation_failed", "The webhook URL is not allowed.", {
      errors: [{ pointer: "/url", code: "url_not_allowed", message: `The URL ${check.reason}.` }],
    });
  }
}

function found(ctx: RouteContext): Subscription {
  const id = ctx.params.subscription_id ?? "";
  const subscription = ctx.account.subscriptions.get(id);
  if (!subscription)
    throw new HttpProblem(404, "not_found", `No webhook subscription ${id} in this account.`);
  return subscription;
}

/** A newest-first page keyed by id; an empty page keeps the position it was asked from. */
async function page<R extends { id: string }, T>(ctx: RouteContext, rows: R[], map: (row: R) => T) {
  const limit = limitOf(ctx.query);
  const cursors = ctx.runtime.cursors.forAccount(ctx.account.id);
  const before = (await cursors.decode<string>(ctx.query.cursor, {})).position || null;
  const sorted = rows
    .filter((r) => before === null || r.id < before)
    .sort((a, b) => (a.id < b.id ? 1 : a.id > b.id ? -1 : 0))
    .slice(0, limit + 1);
  const data = sorted.slice(0, limit);
  return {
    data: data.map(map),
    next_cursor: await cursors.encode(data.at(-1)?.id ?? before ?? "", {}),
    has_more: sorted.length > limit,
  };
}

const createWebhookSubscription: RouteHandler = (ctx) => {
  const body = ctx.body as { url: string; events: string[]; description?: string };
  checkUrl(ctx, body.url);
  const now = ctx.runtime.clock.now();
  const subscription: Subscription = {
    id: ctx.runtime.store.newId("whs"),
    url: body.url,
    events: [...new Set(body.events)],
    description: body.description ?? null,
    status: "enabled",
    secret: generateSecret(),
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
    body: toSubscription(subscription, true),
    headers: { Location: `${basePath(ctx.runtime)}/webhook_subscriptions/${subscription.id}` },
  };
};

const listWebhookSubscriptions: RouteHandler = async (ctx) =>
  ok(await page(ctx, [...ctx.account.subscriptions.values()], (s) => toSubscription(s)));

const getWebhookSubscription: RouteHandler = (ctx) => ok(toSubscription(found(ctx)));

const updateWebhookSubscription: RouteHandler = (ctx) => {
  const patch = ctx.body as SubscriptionPatch;
  if (patch.url !== undefined) checkUrl(ctx, patch.url);
  const s = found(ctx);
  s.updatedAt = ctx.runtime.clock.now();
  if (patch.url !== undefined) s.url = patch.url;
  if (patch.events !== undefined) s.events = [...new Set(patch.events)];
  if (patch.description !== undefined) s.description = patch.description;
  if (patch.status === "enabled" && s.status !== "enabled") {
    // Re-enabling starts a fresh failure count, or the next failure would disable it again at once.
    s.status = "enabled";
    s.consecutiveFailures = 0;
    s.failingSince = null;
  } else if (patch.status === "disabled" && s.status !== "disabled") {
    s.status = "disabled";
    ctx.runtime.webhooks.dropPending(ctx.account, s.id);
  }
  return ok(toSubscription(s));
};

const deleteWebhookSubscription: RouteHandler = (ctx) => {
  const s = found(ctx);
  ctx.account.subscriptions.delete(s.id);
  const deliveries = ctx.account.deliveries;
  for (let i = deliveries.length - 1; i >= 0; i--)
    if (deliveries[i]?.subscriptionId === s.id) deliveries.splice(i, 1);
  return { status: 204 };
};

const rotateWebhookSecret: RouteHandler = (ctx) => {
  const s = found(ctx);
  ctx.runtime.webhooks.rotate(s, generateSecret());
  return ok(toSubscription(s, true));
};

const testWebhookSubscription: RouteHandler = (ctx) => {
  const delivery = ctx.runtime.webhooks.test(ctx.account, found(ctx));
  return { status: 202, body: toDelivery(delivery) };
};

const listWebhookDeliveries: RouteHandler = async (ctx) => {
  const s = found(ctx);
  return ok(
    await page(
      ctx,
      ctx.account.deliveries.filter((d) => d.subscriptionId === s.id),
      toDelivery,
    ),
  );
};

export const webhookRoutes: Record<string, RouteHandler> = {
  createWebhookSubscription,
  listWebhookSubscriptions,
  getWebhookSubscription,
  updateWebhookSubscription,
  deleteWebhookSubscription,
  rotateWebhookSecret,
  testWebhookSubscription,
  listWebhookDeliveries,
};
