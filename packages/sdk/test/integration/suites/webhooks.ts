// Webhook subscriptions against the real server, and real deliveries to a local receiver that
// checks them with verifyWebhook.
import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { dispositions, order, returnOf, shipment } from "@oisr/contract/fixtures";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  ConflictError,
  NotFoundError,
  type OisrClient,
  ValidationError,
  verifyWebhook,
  WebhookVerificationError,
} from "../../../src/index.ts";
import { type TestServer, uid } from "../harness.ts";

interface Delivery {
  path: string;
  body: string;
  headers: IncomingHttpHeaders;
}

/** An http receiver on 127.0.0.1 that answers 204 and keeps what it got. */
async function startReceiver() {
  const deliveries: Delivery[] = [];
  const waiters: { match: (d: Delivery) => boolean; resolve: (d: Delivery) => void }[] = [];
  const http = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const delivery = {
        path: req.url ?? "",
        body: Buffer.concat(chunks).toString("utf8"),
        headers: req.headers,
      };
      deliveries.push(delivery);
      for (const w of [...waiters])
        if (w.match(delivery)) {
          waiters.splice(waiters.indexOf(w), 1);
          w.resolve(delivery);
        }
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  const origin = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  return {
    /** A URL of its own for each subscription: deliveries are told apart by path. */
    newUrl: () => `${origin}/hooks/${uid("sub")}`,
    /** The first delivery (past or future) to `url` whose body contains `text`. */
    next(url: string, text = "", timeoutMs = 15_000): Promise<Delivery> {
      const path = new URL(url).pathname;
      const match = (d: Delivery) => d.path === path && d.body.includes(text);
      const seen = deliveries.find(match);
      if (seen) return Promise.resolve(seen);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`no delivery to ${path} containing "${text}"`)),
          timeoutMs,
        );
        waiters.push({
          match,
          resolve: (d) => {
            clearTimeout(timer);
            resolve(d);
          },
        });
      });
    },
    /** Waits until `count` deliveries to `url` contain `text`, and returns them all. */
    async atLeast(url: string, text: string, count: number, timeoutMs = 15_000): Promise<Delivery[]> {
      const path = new URL(url).pathname;
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const seen = deliveries.filter((d) => d.path === path && d.body.includes(text));
        if (seen.length >= count) return seen;
        if (Date.now() > deadline) throw new Error(`${seen.length} of ${count} deliveries to ${path}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
    close: () => new Promise<void>((resolve) => http.close(() => resolve())),
  };
}

/** Needs a server started with OISR_WEBHOOK_ALLOW_PRIVATE_NETWORKS=1 (the receiver is on 127.0.0.1). */
export const webhookTests = (getServer: () => TestServer) =>
  describe("webhooks", () => {
    let receiver: Awaited<ReturnType<typeof startReceiver>>;
    let client: OisrClient;

    beforeAll(async () => {
      const server = getServer();
      receiver = await startReceiver();
      client = await server.newClient();
    });
    afterAll(() => receiver?.close());

    it("create, list, get, update and delete a subscription", async () => {
      const url = receiver.newUrl();
      const sub = await client.webhooks.create({
        url,
        events: ["return.completed", "return.updated"],
        description: "sdk test",
      });
      expect(sub).toMatchObject({ url, status: "enabled", description: "sdk test" });
      expect(sub.id).toMatch(/^whs_/);
      expect(sub.secret).toMatch(/^whsec_/);

      const { data } = await client.webhooks.list();
      expect(data.map((s) => s.id)).toContain(sub.id);
      expect(data.find((s) => s.id === sub.id)).not.toHaveProperty("secret");
      expect(await client.webhooks.get(sub.id)).toMatchObject({ id: sub.id, events: sub.events });

      const disabled = await client.webhooks.update(sub.id, {
        status: "disabled",
        events: ["return.completed"],
      });
      expect(disabled).toMatchObject({ status: "disabled", events: ["return.completed"] });

      await expect(client.webhooks.delete(sub.id)).resolves.toBeUndefined();
      await expect(client.webhooks.get(sub.id)).rejects.toBeInstanceOf(NotFoundError);
    });

    it("create refuses a URL that is not http(s) with a ValidationError pointing at /url", async () => {
      const err = await client.webhooks
        .create({ url: "ftp://127.0.0.1/hooks", events: ["return.completed"] })
        .catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ValidationError);
      expect((err as ValidationError).errors.map((e) => e.pointer)).toContain("/url");
    });

    it("test() sends a webhook.test event that verifyWebhook accepts with the subscription's secret", async () => {
      const sub = await client.webhooks.create({ url: receiver.newUrl(), events: ["return.completed"] });
      const queued = await client.webhooks.test(sub.id);
      expect(queued.event_type).toBe("webhook.test");

      const delivery = await receiver.next(sub.url);
      const event = await verifyWebhook(delivery.body, delivery.headers, sub.secret);
      expect(event.type).toBe("webhook.test");
      if (event.type === "webhook.test") expect(event.data.object.subscription_id).toBe(sub.id);
      expect(delivery.headers["webhook-id"]).toBe(event.id);
      expect(queued.event_id).toBe(event.id);

      await expect(
        verifyWebhook(delivery.body, delivery.headers, (await client.webhooks.rotateSecret(sub.id)).secret),
      ).rejects.toBeInstanceOf(WebhookVerificationError);

      // The attempt shows up in the history once recorded.
      let attempts = (await client.webhooks.deliveries(sub.id)).data;
      for (let i = 0; i < 50 && attempts[0]?.status !== "succeeded"; i++) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        attempts = (await client.webhooks.deliveries(sub.id)).data;
      }
      expect(attempts[0]).toMatchObject({ event_id: event.id, status: "succeeded", response_status: 204 });
    });

    it("after rotateSecret, deliveries are signed with both secrets", async () => {
      const sub = await client.webhooks.create({ url: receiver.newUrl(), events: ["return.completed"] });
      const rotated = await client.webhooks.rotateSecret(sub.id);
      expect(rotated.secret).not.toBe(sub.secret);
      expect(rotated.id).toBe(sub.id);

      await client.webhooks.test(sub.id);
      const delivery = await receiver.next(sub.url);
      expect(String(delivery.headers["webhook-signature"]).split(" ")).toHaveLength(2);
      for (const secret of [rotated.secret, sub.secret, [rotated.secret, sub.secret]])
        await expect(verifyWebhook(delivery.body, delivery.headers, secret)).resolves.toMatchObject({
          type: "webhook.test",
        });
    });

    it("a completed return is delivered as a verifiable, typed return.completed event", async () => {
      const sub = await client.webhooks.create({ url: receiver.newUrl(), events: ["return.completed"] });
      const o = order();
      const r = returnOf(o.external_id);
      await client.orders.ingestAndWait([o]);
      await client.shipments.ingestAndWait([shipment(o.external_id)]);
      await client.returns.ingestAndWait([r]);
      await client.returns.ingestDispositionsAndWait(r.external_id, dispositions());

      const delivery = await receiver.next(sub.url, `"external_id":"${r.external_id}"`);
      const event = await verifyWebhook(delivery.body, delivery.headers, sub.secret);
      expect(event.type).toBe("return.completed");
      if (event.type !== "webhook.test") {
        expect(event.data.object).toMatchObject({ external_id: r.external_id, status: "completed" });
        expect(event.data.object).toEqual(await client.returns.get(r.external_id));
      }
    });

    it("retryDelivery sends the same event again (same webhook-id, trigger retry), a test event even when disabled", async () => {
      const sub = await client.webhooks.create({ url: receiver.newUrl(), events: ["return.completed"] });
      const queued = await client.webhooks.test(sub.id);
      await receiver.next(sub.url);
      const again = await client.webhooks.retryDelivery(sub.id, queued.id);
      expect(again).toMatchObject({
        event_id: queued.event_id,
        trigger: "retry",
        attempt: 1,
        status: "pending",
      });
      expect(again.id).not.toBe(queued.id);
      const [, second] = await receiver.atLeast(sub.url, "", 2);
      const event = await verifyWebhook(second?.body ?? "", second?.headers ?? {}, sub.secret);
      expect(event.id).toBe(queued.event_id);

      await expect(
        client.webhooks.retryDelivery(sub.id, "whd_01JPSG5BNA823QRHXQJF5YY1V2"),
      ).rejects.toBeInstanceOf(NotFoundError);
      await client.webhooks.update(sub.id, { status: "disabled" });
      // webhook.test events may be sent again to a disabled subscription; other events may not.
      await expect(client.webhooks.retryDelivery(sub.id, queued.id)).resolves.toMatchObject({
        trigger: "retry",
      });
    });

    it("recover sends every subscribed event of the window again, once; a disabled subscription is ConflictError", async () => {
      const own = await getServer().newClient(); // an account of its own: its events are this test's
      const since = new Date(Date.now() - 60_000).toISOString();
      const sub = await own.webhooks.create({ url: receiver.newUrl(), events: ["return.created"] });
      const o = order();
      const r = returnOf(o.external_id);
      await own.orders.ingestAndWait([o]);
      await own.returns.ingestAndWait([r]);
      const [first] = await receiver.atLeast(sub.url, r.external_id, 1);

      const started = await own.webhooks.recover(sub.id, { since }).withResponse();
      expect(started.data).toMatchObject({ subscription_id: sub.id, since: expect.any(String) });
      expect(started.response.headers.get("location")).toBe(
        `/v2/webhook_subscriptions/${sub.id}/recoveries/${started.data.id}`,
      );
      let recovery = started.data;
      for (let i = 0; i < 100 && recovery.status !== "completed"; i++) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        recovery = await own.webhooks.getRecovery(sub.id, recovery.id);
      }
      expect(recovery).toMatchObject({ status: "completed", events_queued: 1 });
      const [, again] = await receiver.atLeast(sub.url, r.external_id, 2);
      expect(again?.headers["webhook-id"]).toBe(first?.headers["webhook-id"]);
      await expect(verifyWebhook(again?.body ?? "", again?.headers ?? {}, sub.secret)).resolves.toMatchObject(
        {
          type: "return.created",
        },
      );
      const attempts = (await own.webhooks.deliveries(sub.id)).data;
      expect(attempts.map((d) => d.trigger).sort()).toEqual(["event", "recover"]);

      await own.webhooks.update(sub.id, { status: "disabled" });
      const refused = await own.webhooks.recover(sub.id, { since }).catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(ConflictError);
      expect(refused).toMatchObject({ status: 409, code: "subscription_disabled" });
      await expect(own.webhooks.retryDelivery(sub.id, attempts[0]?.id ?? "")).rejects.toMatchObject({
        code: "subscription_disabled",
      });
      await expect(own.webhooks.getRecovery(sub.id, "whr_01JQD2B8M4ZJ2W6Q7N3V5X9K1R")).rejects.toBeInstanceOf(
        NotFoundError,
      );
    });
  });
