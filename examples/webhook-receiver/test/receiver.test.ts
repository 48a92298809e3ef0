import type { AddressInfo } from "node:net";
import {
  createClient,
  generateWebhookSecret,
  type RequestEvent,
  signWebhook,
  type WebhookEvent,
} from "@oisr/sdk";
import { loadConfig, type RunningServer, startServer } from "@oisr/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { describeFailure, failedRequest } from "../src/failed-requests.ts";
import { createReceiver } from "../src/receiver.ts";

const secret = generateWebhookSecret();
const received: WebhookEvent[] = [];
const logged: string[] = [];
const receiver = createReceiver({
  secret,
  onEvent: (event) => void received.push(event),
  log: (line) => void logged.push(line),
});
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

/** A `request.failed` event as OISR sends it: a returns call naming an order that does not exist. */
const requestFailed = (errors: number, errorsTotal = errors): RequestEvent => ({
  id: "evt_01JPVX3JZ7B4Q2N8D6F0H1K3M5",
  type: "request.failed",
  created_at: "2025-03-21T08:30:00.519Z",
  api_key_id: "key_01JKQ9ZT1E4N7C2H8V5B3M6X0P",
  data: {
    object: {
      request_id: "0195b7d2-ccdc-7d13-a202-55eb7622333b",
      api_key_id: "key_01JKQ9ZT1E4N7C2H8V5B3M6X0P",
      kind: "returns",
      status: "failed",
      trace_id: "443c37ce7dbf0caac044e7ecd4aa2e00",
      idempotency_key: null,
      item_count: errorsTotal,
      accepted_at: "2025-03-21T08:30:00.412Z",
      started_at: "2025-03-21T08:30:00.455Z",
      completed_at: "2025-03-21T08:30:00.519Z",
      attempts: 1,
      result: null,
      errors: Array.from({ length: errors }, (_, i) => ({
        pointer: `/returns/${i}/order_id`,
        code: "order_not_found",
        message: `No order with id or external_id "ORD-${i}".`,
      })),
      errors_total: errorsTotal,
      error: null,
      url: "/v2/requests/0195b7d2-ccdc-7d13-a202-55eb7622333b",
    },
  },
});

describe("webhook receiver", () => {
  it("answers 204 to a correctly signed delivery and handles it once, however often it comes", async () => {
    const { body, headers } = await signWebhook({ payload: event("evt_1"), secret });
    for (let i = 0; i < 2; i++) {
      const res = await fetch(url, { method: "POST", body, headers });
      expect(res.status).toBe(204);
    }
    expect(received.filter((e) => e.id === "evt_1")).toHaveLength(1);
  });

  const mismatch =
    "signature mismatch: is OISR_WEBHOOK_SECRET the secret of this subscription? After rotate_secret, use the new one";
  it.each([
    [
      "a signature made with another secret",
      async () => signWebhook({ payload: event("evt_2"), secret: generateWebhookSecret() }),
      mismatch,
    ],
    [
      "a body changed after signing",
      async () => {
        const signed = await signWebhook({ payload: event("evt_3"), secret });
        return { ...signed, body: signed.body.replace("hello", "HELLO") };
      },
      mismatch,
    ],
    [
      "a timestamp older than 5 minutes",
      async () => signWebhook({ payload: event("evt_4"), secret, timestamp: new Date(Date.now() - 600_000) }),
      expect.stringMatching(/^timestamp outside tolerance: .*600 s old \(tolerance 300 s\)/),
    ],
    [
      "a webhook-timestamp that is not unix seconds",
      async () => {
        const signed = await signWebhook({ payload: event("evt_8"), secret });
        return { ...signed, headers: { ...signed.headers, "webhook-timestamp": "2025-03-21T08:00:00Z" } };
      },
      expect.stringMatching(/^invalid webhook-timestamp: /),
    ],
    [
      "no signature headers",
      async () => ({ body: JSON.stringify(event("evt_5")), headers: {} }),
      expect.stringMatching(/^missing headers webhook-id, webhook-timestamp, webhook-signature: /),
    ],
    [
      "a delivery without its webhook-signature header",
      async () => {
        const signed = await signWebhook({ payload: event("evt_6"), secret });
        const { "webhook-signature": _, ...headers } = signed.headers;
        return { body: signed.body, headers };
      },
      expect.stringMatching(/^missing header webhook-signature: /),
    ],
  ])(
    "answers 400 to %s, says why in the log and the body, and does not handle it",
    async (_, make, reason) => {
      const { body, headers } = await make();
      const id = JSON.parse(body).id as string;
      const res = await fetch(url, { method: "POST", body, headers });
      expect(res.status).toBe(400);
      expect(res.headers.get("content-type")).toBe("text/plain; charset=utf-8");
      const text = (await res.text()).trimEnd();
      expect(text).toEqual(reason);
      const line = logged.find((l) => l.includes(text));
      expect(line).toMatch(/^webhook (evt_\d|\(no webhook-id\)) rejected \(400\): /);
      expect(received.map((e) => e.id)).not.toContain(id);
    },
  );

  it("refuses to start with a secret that is not whsec_<base64>, and says what is wrong", () => {
    expect(() => createReceiver({ secret: "MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw", onEvent() {} })).toThrow(
      /does not start with "whsec_".*POST \/v2\/webhook_subscriptions/,
    );
  });

  it("answers 500, and does not crash, when the secret swapped in later is malformed", async () => {
    const lines: string[] = [];
    const options = { secret: generateWebhookSecret(), onEvent() {}, log: (l: string) => void lines.push(l) };
    const broken = createReceiver(options);
    await new Promise<void>((resolve) => broken.listen(0, "127.0.0.1", resolve));
    try {
      options.secret = "not-a-secret";
      const { body, headers } = await signWebhook({ payload: event("evt_7"), secret });
      const target = `http://127.0.0.1:${(broken.address() as AddressInfo).port}/webhooks/oisr`;
      expect((await fetch(target, { method: "POST", body, headers })).status).toBe(500);
      expect(lines).toEqual([expect.stringMatching(/^webhook evt_7 not verified: /)]);
    } finally {
      await new Promise<void>((resolve) => broken.close(() => resolve()));
    }
  });

  it("hands a verified request.failed to the application, which reads what was rejected from it (no polling)", async () => {
    const { body, headers } = await signWebhook({ payload: requestFailed(1), secret });
    expect((await fetch(url, { method: "POST", body, headers })).status).toBe(204);
    const event = received.find((e) => e.id === "evt_01JPVX3JZ7B4Q2N8D6F0H1K3M5");
    if (event?.type !== "request.failed") throw new Error("the request.failed event was not handled");
    expect(describeFailure(failedRequest(event))).toBe(
      [
        "returns request 0195b7d2-ccdc-7d13-a202-55eb7622333b was rejected; nothing of it was applied:",
        '  /returns/0/order_id order_not_found: No order with id or external_id "ORD-0".',
      ].join("\n"),
    );
  });

  it("points to the whole record when the request has more errors than the event carries", () => {
    const failure = failedRequest(requestFailed(100, 250));
    expect(failure).toMatchObject({
      errorsTotal: 250,
      url: "/v2/requests/0195b7d2-ccdc-7d13-a202-55eb7622333b",
    });
    expect(failure.errors).toHaveLength(100);
    expect(describeFailure(failure).split("\n").at(-1)).toBe(
      "  …and 150 more: GET /v2/requests/0195b7d2-ccdc-7d13-a202-55eb7622333b",
    );
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

    it("with another subscription's secret, says why in its log, and the server's deliveries log shows it too", async () => {
      const { token } = await server.services.accounts.createAccount("wrong-secret");
      const client = createClient({ baseUrl: server.url as string, token });
      const lines: string[] = [];
      // A secret of a valid format, but not this subscription's (e.g. one from before rotate_secret).
      const liveReceiver = createReceiver({
        secret: generateWebhookSecret(),
        onEvent() {},
        log: (line) => void lines.push(line),
      });
      await new Promise<void>((resolve) => liveReceiver.listen(0, "127.0.0.1", resolve));
      try {
        const port = (liveReceiver.address() as AddressInfo).port;
        const subscription = await client.webhooks.create({
          url: `http://127.0.0.1:${port}/webhooks/oisr`,
          events: ["return.created"],
        });
        const test = await client.webhooks.test(subscription.id);
        await expect
          .poll(() => lines, { timeout: 10_000 })
          .toEqual([`webhook ${test.event_id} rejected (400): ${mismatch}`]);
        // The attempt is recorded just after the receiver answered.
        await expect
          .poll(
            async () =>
              (await client.webhooks.deliveries(subscription.id)).data.filter((d) => d.attempt === 1),
            {
              timeout: 10_000,
            },
          )
          .toEqual([
            expect.objectContaining({
              status: "failed",
              response_status: 400,
              error: "HTTP 400 Bad Request",
              response_content_type: "text/plain; charset=utf-8",
              response_body: `${mismatch}\n`,
            }),
          ]);
      } finally {
        await new Promise<void>((resolve) => liveReceiver.close(() => resolve()));
      }
    });

    it("hears of a rejected ingest call from its request.failed event, and of nothing it did not subscribe to", async () => {
      const { token } = await server.services.accounts.createAccount("failed-requests");
      const client = createClient({ baseUrl: server.url as string, token });
      const live: WebhookEvent[] = [];
      const options = { secret: generateWebhookSecret(), onEvent: (e: WebhookEvent) => void live.push(e) };
      const liveReceiver = createReceiver(options);
      await new Promise<void>((resolve) => liveReceiver.listen(0, "127.0.0.1", resolve));
      try {
        const port = (liveReceiver.address() as AddressInfo).port;
        const subscription = await client.webhooks.create({
          url: `http://127.0.0.1:${port}/webhooks/oisr`,
          events: ["request.failed"],
        });
        options.secret = subscription.secret;
        // A call that succeeds: its request.succeeded event is not one the subscription lists.
        await client.inventory.ingestAndWait([
          {
            location_id: "WH-1",
            as_of: "2025-03-21T08:00:00Z",
            mode: "partial",
            items: [{ sku: "SKU-1", on_hand: 3, available: 3 }],
          },
        ]);
        // A return for an order OISR has never seen: accepted (202), then rejected by the rules.
        const ack = await client.returns.ingest([
          {
            external_id: "RMA-1",
            order_id: "ORD-UNKNOWN",
            items: [{ line_id: "L1", quantity: 1, reason_code: "damaged" }],
            requested_at: "2025-03-21T08:00:00Z",
            source_updated_at: "2025-03-21T08:00:00Z",
          },
        ]);
        await expect.poll(() => live.map((e) => e.type), { timeout: 10_000 }).toEqual(["request.failed"]);
        const [event] = live;
        if (event?.type !== "request.failed") throw new Error("not a request.failed event");
        const failure = failedRequest(event);
        expect(failure).toMatchObject({ requestId: ack.request_id, kind: "returns", errorsTotal: 1 });
        expect(failure.errors).toEqual([expect.stringMatching(/^\/returns\/0\/order_id order_not_found: /)]);
      } finally {
        await new Promise<void>((resolve) => liveReceiver.close(() => resolve()));
      }
    });
  });
});
