// /webhook_subscriptions*: subscriptions, secret rotation, test events, the attempt history, and
// sending events again (retry of a delivery, recovery of a window).
// Request bodies are already validated against the spec; the URL rules (SSRF guard) are checked here.
import {
  deliveryNotFound,
  eventNotFound,
  idPage,
  limitOf,
  recoveryLocation,
  recoveryNotFound,
  recoveryWindow,
  retentionCutoff,
  subscriptionDisabled,
  subscriptionNotFound,
  toWebhookDelivery,
  toWebhookRecovery,
  toWebhookSubscription,
  webhookUrlNotAllowed,
} from "@oisr/contract";
import { Router } from "express";
import type { Config } from "../config.ts";
import type { AccountCursors, Cursors } from "../http/cursor.ts";
import { operation } from "../http/typed.ts";
import type { DeliveryHistory, SubscriptionStore } from "../webhooks/sql/index.ts";
import { checkWebhookUrl, type Resolver } from "../webhooks/ssrf-guard.ts";

export interface WebhookRouteDeps {
  subscriptions: SubscriptionStore;
  /** Reads only; the dispatcher is the one that claims and records. */
  deliveries: DeliveryHistory;
  cursors: Cursors;
  /** requestRetentionDays: how long events are kept, so how far back they can be sent again. */
  config: Pick<Config, "webhookAllowPrivateNetworks" | "requestRetentionDays">;
  /** DNS for the URL check; injected in tests. */
  resolve?: Resolver;
}

export function webhookRoutes(deps: WebhookRouteDeps): Router {
  const router = Router();
  const { subscriptions, deliveries } = deps;

  async function checkUrl(url: string): Promise<void> {
    const check = await checkWebhookUrl(url, {
      allowPrivateNetworks: deps.config.webhookAllowPrivateNetworks,
      resolve: deps.resolve,
    });
    if (!check.ok) throw webhookUrlNotAllowed(check.reason);
  }

  async function found(accountId: string, id: string) {
    const row = await subscriptions.get(accountId, id);
    if (!row) throw subscriptionNotFound(id);
    return row;
  }

  /** The id the previous page ended at, or null for the first page. */
  const positionOf = async (cursors: AccountCursors, cursor: string | undefined) =>
    (await cursors.decode<string>(cursor, {})).position || null;

  router.post(
    "/webhook_subscriptions",
    operation("createWebhookSubscription", async (req, res) => {
      await checkUrl(req.body.url);
      const row = await subscriptions.create(res.locals.account.id, req.body);
      res.setHeader("Location", `/v2/webhook_subscriptions/${row.id}`);
      res.status(201).json(toWebhookSubscription(row, true));
    }),
  );

  router.get(
    "/webhook_subscriptions",
    operation("listWebhookSubscriptions", async (req, res) => {
      const { account } = res.locals;
      const cursors = deps.cursors.forAccount(account.id);
      const limit = limitOf(req.query);
      const before = await positionOf(cursors, req.query.cursor);
      const rows = await subscriptions.list(account.id, before, limit + 1);
      res.json(await idPage(cursors, rows, limit, before, (row) => toWebhookSubscription(row)));
    }),
  );

  router.get(
    "/webhook_subscriptions/:subscription_id",
    operation("getWebhookSubscription", async (req, res) => {
      res.json(toWebhookSubscription(await found(res.locals.account.id, req.params.subscription_id)));
    }),
  );

  router.patch(
    "/webhook_subscriptions/:subscription_id",
    operation("updateWebhookSubscription", async (req, res) => {
      const id = req.params.subscription_id;
      if (req.body.url !== undefined) await checkUrl(req.body.url);
      const row = await subscriptions.update(res.locals.account.id, id, req.body);
      if (!row) throw subscriptionNotFound(id);
      res.json(toWebhookSubscription(row));
    }),
  );

  router.delete(
    "/webhook_subscriptions/:subscription_id",
    operation("deleteWebhookSubscription", async (req, res) => {
      const id = req.params.subscription_id;
      if (!(await subscriptions.remove(res.locals.account.id, id))) throw subscriptionNotFound(id);
      res.status(204).end();
    }),
  );

  router.post(
    "/webhook_subscriptions/:subscription_id/rotate_secret",
    operation("rotateWebhookSecret", async (req, res) => {
      const id = req.params.subscription_id;
      const row = await subscriptions.rotateSecret(res.locals.account.id, id);
      if (!row) throw subscriptionNotFound(id);
      res.json(toWebhookSubscription(row, true));
    }),
  );

  router.post(
    "/webhook_subscriptions/:subscription_id/test",
    operation("testWebhookSubscription", async (req, res) => {
      const { account } = res.locals;
      const subscription = await found(account.id, req.params.subscription_id);
      const delivery = await subscriptions.enqueueTest(
        account.id,
        subscription,
        res.locals.traceId,
        res.locals.apiKey.id,
      );
      res.status(202).json(toWebhookDelivery(delivery));
    }),
  );

  router.post(
    "/webhook_subscriptions/:subscription_id/deliveries/:delivery_id/retry",
    operation("retryWebhookDelivery", async (req, res) => {
      const { subscription_id: id, delivery_id: deliveryId } = req.params;
      const eventsSince = retentionCutoff(new Date(), deps.config.requestRetentionDays).toISOString();
      const result = await subscriptions.retryDelivery(res.locals.account.id, id, deliveryId, eventsSince);
      switch (result.outcome) {
        case "no_subscription":
          throw subscriptionNotFound(id);
        case "disabled":
          throw subscriptionDisabled(id);
        case "no_delivery":
          throw deliveryNotFound(deliveryId);
        case "no_event":
          throw eventNotFound(result.eventId);
        case "queued":
          res.status(202).json(toWebhookDelivery(result.delivery));
      }
    }),
  );

  router.post(
    "/webhook_subscriptions/:subscription_id/recover",
    operation("recoverWebhookSubscription", async (req, res) => {
      const id = req.params.subscription_id;
      const window = recoveryWindow(req.body, new Date(), deps.config.requestRetentionDays);
      const result = await subscriptions.startRecovery(res.locals.account.id, id, window);
      if (result.outcome === "no_subscription") throw subscriptionNotFound(id);
      if (result.outcome === "disabled") throw subscriptionDisabled(id);
      res.setHeader("Location", recoveryLocation(id, result.recovery.id));
      res.status(202).json(toWebhookRecovery(result.recovery));
    }),
  );

  router.get(
    "/webhook_subscriptions/:subscription_id/recoveries/:recovery_id",
    operation("getWebhookRecovery", async (req, res) => {
      const { account } = res.locals;
      const { subscription_id: id, recovery_id: recoveryId } = req.params;
      // A deleted subscription's recoveries are gone with it (their rows wait for the retention prune).
      await found(account.id, id);
      const recovery = await subscriptions.getRecovery(account.id, id, recoveryId);
      if (!recovery) throw recoveryNotFound(recoveryId);
      res.json(toWebhookRecovery(recovery));
    }),
  );

  router.get(
    "/webhook_subscriptions/:subscription_id/deliveries",
    operation("listWebhookDeliveries", async (req, res) => {
      const { account } = res.locals;
      const cursors = deps.cursors.forAccount(account.id);
      const subscription = await found(account.id, req.params.subscription_id);
      const limit = limitOf(req.query);
      const before = await positionOf(cursors, req.query.cursor);
      const rows = await deliveries.list(account.id, subscription.id, before, limit + 1);
      res.json(await idPage(cursors, rows, limit, before, toWebhookDelivery));
    }),
  );

  return router;
}
