import type { AddressInfo } from "node:net";
import { createClient, generateWebhookSecret, signWebhook, type WebhookEvent } from "@oisr/sdk";
import { loadConfig, type RunningServer, startServer } from "@oisr/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createReceiver } from "../src/receiver.ts";

const secret = generateWebhookSecret();
const received: WebhookEvent[] = [];
const receiver = createReceiver({ secret, onEvent: (event) => void received.push(event) });
let url: string;

beforeAll(async () => {
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/webhooks/oisr`;
});
afterAll(() => new Promise<void>((resolve) => receiver.close(() => resolve())));

const event = (id: string): WebhookEvent =>
  ({
    id,
    type: "webhook.test",
    created_at: new Date().toISOString(),
    data: { object: { message: "hello" } },
  }) as unknown as WebhookEvent;

describe("webhook receiver", () => {
  it("answers 204 to a correctly signed delivery and handles it once, however often it comes", async () => {
    const { body, headers } = await signWebhook({ payload: event("evt_1"), secret });
    for (let i = 0; i < 2; i++) {
      const res = await fetch(url, { method: "POST", body, headers });
      expect(res.status).toBe(204);
    }
    expect(received.filter((e) => e.id === "evt_1")).toHaveLength(1);
  });

  it.each([
    [
      "a signature made with another secret",
      async () => signWebhook({ payload: event("evt_2"), secret: generateWebhookSecret() }),
    ],
    [
      "a body changed after signing",
      async () => {
        const signed = await signWebhook({ payload: event("evt_3"), secret });
        return { ...signed, body: signed.body.replace("hello", "HELLO") };
      },
    ],
    [
      "a timestamp older than 5 minutes",
      async () => signWebhook({ payload: event("evt_4"), secret, timestamp: new Date(Date.now() - 600_000) }),
    ],
    ["no signature headers", async () => ({ body: JSON.stringify(event("evt_5")), headers: {} })],
  ])("answers 400 to %s and does not handle it", async (_, make) => {
    const { body, headers } = await make();
    const res = await fetch(url, { method: "POST", body, headers });
    expect(res.status).toBe(400);
    expect(received.map((e) => e.id)).not.toContain(JSON.parse(body).id);
  });

  describe("with the real server delivering", () => {
    let server: RunningServer;
    beforeAll(async () => {
      server = await startServer(
        loadConfig({
          PORT: "0",
          LOG_LEVEL: "silent",
          OISR_DATA_DIR: "memory://",
          OISR_WEBHOOK_ALLOW_PRIVATE_NETWORKS: "1",
        }),
      );
    });
    afterAll(() => server.close());

    it("verifies the server's test event with the subscription's secret", async () => {
      const { token } = await server.services.accounts.createAccount("webhooks");
      const client = createClient({ baseUrl: server.url as string, token });
      const live: WebhookEvent[] = [];
      // The secret is known once the subscription exists; the receiver reads it on each delivery.
      const options = { secret: generateWebhookSecret(), onEvent: (e: WebhookEvent) => void live.push(e) };
      const liveReceiver = createReceiver(options);
      await new Promise<void>((resolve) => liveReceiver.listen(0, "127.0.0.1", resolve));
      try {
        const port = (liveReceiver.address() as AddressInfo).port;
        const subscription = await client.webhooks.create({
          url: `http://127.0.0.1:${port}/webhooks/oisr`,
          events: ["return.created"],
        });
        options.secret = subscription.secret;
        await client.webhooks.test(subscription.id);
        await expect.poll(() => live.map((e) => e.type), { timeout: 10_000 }).toEqual(["webhook.test"]);
      } finally {
        await new Promise<void>((resolve) => liveReceiver.close(() => resolve()));
      }
    });
  });
});
