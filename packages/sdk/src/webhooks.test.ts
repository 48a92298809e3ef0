import { describe, expect, it } from "vitest";
import { WebhookVerificationError } from "./errors.ts";
import type { WebhookEvent } from "./types.ts";
import { generateWebhookSecret, signWebhook, verifyWebhook } from "./webhooks.ts";

// The Standard Webhooks reference test vector (standard-webhooks/standard-webhooks, libraries' tests).
const VECTOR = {
  secret: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw",
  id: "msg_p5jXN8AQM9LWM0D4loKWxJek",
  timestamp: "1614265330",
  body: '{"test": 2432232314}',
  signature: "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=",
};
const AT_VECTOR = new Date(Number(VECTOR.timestamp) * 1000);

const event: WebhookEvent = {
  id: "evt_01JD3X0000000000000000000A",
  type: "webhook.test",
  created_at: "2025-01-01T12:00:00Z",
  api_key_id: null,
  data: { object: { subscription_id: "whs_01JD3X0000000000000000000B", message: "This is a test event." } },
};

describe("verifyWebhook", () => {
  it("accepts the Standard Webhooks test vector", async () => {
    const headers = {
      "webhook-id": VECTOR.id,
      "webhook-timestamp": VECTOR.timestamp,
      "webhook-signature": VECTOR.signature,
    };
    await expect(verifyWebhook(VECTOR.body, headers, VECTOR.secret, { now: AT_VECTOR })).resolves.toEqual({
      test: 2432232314,
    });
  });

  it("signWebhook produces the reference signature", async () => {
    const signed = await signWebhook({
      payload: VECTOR.body,
      secret: VECTOR.secret,
      id: VECTOR.id,
      timestamp: AT_VECTOR,
    });
    expect(signed.headers["webhook-signature"]).toBe(VECTOR.signature);
  });

  it("round-trips a signed event through Headers, a record with other casing, and raw bytes", async () => {
    const secret = generateWebhookSecret();
    const { body, headers } = await signWebhook({ payload: event, secret });
    await expect(verifyWebhook(body, new Headers(headers), secret)).resolves.toEqual(event);
    const shouted = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toUpperCase(), v]));
    await expect(verifyWebhook(new TextEncoder().encode(body), shouted, secret)).resolves.toEqual(event);
  });

  const invalid: Array<[string, (h: Record<string, string>) => Record<string, string>, string]> = [
    ["a missing signature header", ({ "webhook-signature": _, ...h }) => h, VECTOR.body],
    ["a missing id header", ({ "webhook-id": _, ...h }) => h, VECTOR.body],
    ["a tampered body", (h) => h, '{"test": 2432232315}'],
    ["another message id", (h) => ({ ...h, "webhook-id": "msg_other" }), VECTOR.body],
    [
      "a tampered signature",
      (h) => ({ ...h, "webhook-signature": "v1,h0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=" }),
      VECTOR.body,
    ],
    [
      "a signature of another scheme",
      (h) => ({ ...h, "webhook-signature": VECTOR.signature.replace("v1,", "v2,") }),
      VECTOR.body,
    ],
    ["garbage in the signature", (h) => ({ ...h, "webhook-signature": "v1,!!!not-base64" }), VECTOR.body],
    ["a non-numeric timestamp", (h) => ({ ...h, "webhook-timestamp": "yesterday" }), VECTOR.body],
  ];
  it.each(invalid)("rejects %s", async (_name, edit, body) => {
    const headers = edit({
      "webhook-id": VECTOR.id,
      "webhook-timestamp": VECTOR.timestamp,
      "webhook-signature": VECTOR.signature,
    });
    await expect(verifyWebhook(body, headers, VECTOR.secret, { now: AT_VECTOR })).rejects.toBeInstanceOf(
      WebhookVerificationError,
    );
  });

  it.each([
    ["too old", 301, false],
    ["just within the tolerance", 300, true],
    ["from the future", -301, false],
  ])("timestamp %s", async (_name, ageSeconds, ok) => {
    const headers = {
      "webhook-id": VECTOR.id,
      "webhook-timestamp": VECTOR.timestamp,
      "webhook-signature": VECTOR.signature,
    };
    const now = new Date(AT_VECTOR.getTime() + ageSeconds * 1000);
    const p = verifyWebhook(VECTOR.body, headers, VECTOR.secret, { now });
    if (ok) await expect(p).resolves.toBeDefined();
    else await expect(p).rejects.toThrow(/tolerance/);
  });

  it("honours a custom tolerance", async () => {
    const headers = {
      "webhook-id": VECTOR.id,
      "webhook-timestamp": VECTOR.timestamp,
      "webhook-signature": VECTOR.signature,
    };
    const now = new Date(AT_VECTOR.getTime() + 3_600_000);
    await expect(
      verifyWebhook(VECTOR.body, headers, VECTOR.secret, { now, toleranceSeconds: 7200 }),
    ).resolves.toBeDefined();
  });

  it("accepts any of several signatures (the 24 h after a rotation) with either secret", async () => {
    const oldSecret = generateWebhookSecret();
    const newSecret = generateWebhookSecret();
    const { body, headers } = await signWebhook({ payload: event, secret: [newSecret, oldSecret] });
    expect(headers["webhook-signature"].split(" ")).toHaveLength(2);
    await expect(verifyWebhook(body, headers, oldSecret)).resolves.toEqual(event);
    await expect(verifyWebhook(body, headers, newSecret)).resolves.toEqual(event);
  });

  it("accepts a list of secrets, so a receiver can roll a rotation out", async () => {
    const oldSecret = generateWebhookSecret();
    const newSecret = generateWebhookSecret();
    const { body, headers } = await signWebhook({ payload: event, secret: newSecret });
    await expect(verifyWebhook(body, headers, oldSecret)).rejects.toBeInstanceOf(WebhookVerificationError);
    await expect(verifyWebhook(body, headers, [oldSecret, newSecret])).resolves.toEqual(event);
  });

  it("throws TypeError (not a verification error) for a malformed secret", async () => {
    const { body, headers } = await signWebhook({ payload: event, secret: generateWebhookSecret() });
    await expect(verifyWebhook(body, headers, "not-a-secret")).rejects.toBeInstanceOf(TypeError);
  });

  it("rejects a correctly signed body that is not JSON", async () => {
    const secret = generateWebhookSecret();
    const { body, headers } = await signWebhook({ payload: "not json", secret, id: "evt_1" });
    await expect(verifyWebhook(body, headers, secret)).rejects.toThrow(/not JSON/);
  });
});
