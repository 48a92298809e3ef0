// /webhook_subscriptions*: subscriptions, secret rotation, test events and the attempt history.
// Request bodies are already validated against the spec; the URL rules (SSRF guard) are checked here.
import {
  subscriptionNotFound,
  toWebhookDelivery,
  toWebhookSubscription,
  webhookUrlNotAllowed,
} from "@oisr/contract";
import { type Request, type Response, Router } from "express";
import type { Config } from "../config.ts";
import type { Database } from "../db/client.ts";
import { accountOf } from "../http/auth.ts";
import { type AccountCursors, cursorsOf } from "../http/cursor.ts";
import { createDeliveryStore } from "../webhooks/deliveries-store.ts";
import { checkWebhookUrl, type Resolver } from "../webhooks/ssrf-guard.ts";
import { createSubscriptionStore, type SubscriptionPatch } from "../webhooks/subscriptions-store.ts";

export interface WebhookRouteDeps {
  database: Database;
  config: Pick<Config, "webhookAllowPrivateNetworks">;
  /** DNS for the URL check; injected in tests. */
  resolve?: Resolver;
}

/** A newest-first page from `limit + 1` rows keyed by id; an empty page keeps the position it was asked from. */
async function page<R extends { id: string }, T>(
  cursors: AccountCursors,
  rows: R[],
  limit: number,
  before: string | null,
  map: (row: R) => T,
) {
  const data = rows.slice(0, limit);
  return {
    data: data.map(map),
    next_cursor: await cursors.encode(data.at(-1)?.id ?? before ?? "", {}),
    has_more: rows.length > limit,
  };
}

export function webhookRoutes(deps: WebhookRouteDeps): Router {
  const router = Router();
  const subscriptions = createSubscriptionStore(deps.database);
  // Reads only; the dispatcher is the one that claims and records.
  const deliveries = createDeliveryStore(deps.database, "api");

  async function checkUrl(url: string): Promise<void> {
    const check = await checkWebhookUrl(url, {
      allowPrivateNetworks: deps.config.webhookAllowPrivateNetworks,
      resolve: deps.resolve,
    });
    if (!check.ok) throw webhookUrlNotAllowed(check.reason);
  }

  async function found(req: Request, res: Response) {
    const id = String(req.params.subscription_id);
    const row = await subscriptions.get(accountOf(res).id, id);
    if (!row) throw subscriptionNotFound(id);
    return row;
  }

  const limitOf = (req: Request) => Number(req.query.limit ?? 50);
  const cursorOf = async (req: Request, res: Response) =>
    (await cursorsOf(res).decode<string>(req.query.cursor, {})).position || null;

  router.post("/webhook_subscriptions", async (req: Request, res: Response) => {
    const body = req.body as { url: string; events: string[]; description?: string };
    await checkUrl(body.url);
    const row = await subscriptions.create(accountOf(res).id, body);
    res.setHeader("Location", `/v2/webhook_subscriptions/${row.id}`);
    res.status(201).json(toWebhookSubscription(row, true));
  });

  router.get("/webhook_subscriptions", async (req: Request, res: Response) => {
    const limit = limitOf(req);
    const before = await cursorOf(req, res);
    const rows = await subscriptions.list(accountOf(res).id, before, limit + 1);
    res.json(await page(cursorsOf(res), rows, limit, before, (row) => toWebhookSubscription(row)));
  });

  router.get("/webhook_subscriptions/:subscription_id", async (req: Request, res: Response) => {
    res.json(toWebhookSubscription(await found(req, res)));
  });

  router.patch("/webhook_subscriptions/:subscription_id", async (req: Request, res: Response) => {
    const patch = req.body as SubscriptionPatch;
    if (patch.url !== undefined) await checkUrl(patch.url);
    const row = await subscriptions.update(accountOf(res).id, String(req.params.subscription_id), patch);
    if (!row) throw subscriptionNotFound(String(req.params.subscription_id));
    res.json(toWebhookSubscription(row));
  });

  router.delete("/webhook_subscriptions/:subscription_id", async (req: Request, res: Response) => {
    const deleted = await subscriptions.remove(accountOf(res).id, String(req.params.subscription_id));
    if (!deleted) throw subscriptionNotFound(String(req.params.subscription_id));
    res.status(204).end();
  });

  router.post(
    "/webhook_subscriptions/:subscription_id/rotate_secret",
    async (req: Request, res: Response) => {
      const row = await subscriptions.rotateSecret(accountOf(res).id, String(req.params.subscription_id));
      if (!row) throw subscriptionNotFound(String(req.params.subscription_id));
      res.json(toWebhookSubscription(row, true));
    },
  );

  router.post("/webhook_subscriptions/:subscription_id/test", async (req: Request, res: Response) => {
    const subscription = await found(req, res);
    const delivery = await subscriptions.enqueueTest(accountOf(res).id, subscription);
    res.status(202).json(toWebhookDelivery(delivery));
  });

  router.get("/webhook_subscriptions/:subscription_id/deliveries", async (req: Request, res: Response) => {
    const subscription = await found(req, res);
    const limit = limitOf(req);
    const before = await cursorOf(req, res);
    const rows = await deliveries.list(accountOf(res).id, subscription.id, before, limit + 1);
    res.json(await page(cursorsOf(res), rows, limit, before, toWebhookDelivery));
  });

  return router;
}
