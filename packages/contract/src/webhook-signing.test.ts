import { describe, expect, it } from "vitest";
import { fromBase64 } from "./base64.ts";
import {
  generateWebhookSecret,
  signedWebhookHeaders,
  signWebhook,
  verifyWebhookSignature,
  webhookSecretKey,
} from "./webhook-signing.ts";

// The Standard Webhooks specification's published test vector (also in its reference libraries'
// tests), so any Standard Webhooks verifier accepts what the server and the mock sign.
const REFERENCE = {
  secret: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw",
  id: "msg_p5jXN8AQM9LWM0D4loKWxJek",
  timestamp: 1614265330,
  body: '{"test": 2432232314}',
  signature: "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=",
};

// A second vector made with node:crypto's createHmac (an implementation independent of this
// one), with the spec's own example secret (32 bytes) and a body outside ASCII.
const SPEC_SECRET = {
  secret: "whsec_buDs2IMBU7kJbEBTDxo0v24P9EoRjWTF1Bb+ZISQE+E=",
  id: "evt_01JN8S7QQT86WJ5VH5F0CXSRN7",
  timestamp: 1740830400,
  body: '{"id":"evt_01JN8S7QQT86WJ5VH5F0CXSRN7","type":"return.created","note":"é ✓"}',
  signature: "v1,REOnMjKg8uKrKYt9yjIFSJ5tHV1zh/iR6zw3VqF6wBY=",
};

const secretsOf = (v: typeof REFERENCE) => [v.secret];

describe("signWebhook", () => {
  it.each([
    ["the Standard Webhooks reference", REFERENCE],
    ["node:crypto, the spec's example secret, UTF-8", SPEC_SECRET],
  ])("reproduces %s signature", async (_name, v) => {
    expect(await signWebhook({ ...v, secrets: secretsOf(v) })).toBe(v.signature);
    expect(await signWebhook({ ...v, secrets: v.secret })).toBe(v.signature);
    // The same bytes given as bytes sign the same.
    expect(await signWebhook({ ...v, body: new TextEncoder().encode(v.body), secrets: v.secret })).toBe(
      v.signature,
    );
  });

  it("signs with every live secret, space-separated, in the order given", async () => {
    const header = await signWebhook({ ...REFERENCE, secrets: [SPEC_SECRET.secret, REFERENCE.secret] });
    const [first, second, more] = header.split(" ");
    expect(first).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/);
    expect(first).not.toBe(REFERENCE.signature);
    expect(second).toBe(REFERENCE.signature);
    expect(more).toBeUndefined();
  });

  it.each([
    ["no whsec_ prefix", "MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"],
    ["no key after the prefix", "whsec_"],
    ["a key that is not base64", "whsec_%%%%"],
  ])("refuses a secret with %s as a TypeError (a configuration error)", async (_name, secret) => {
    await expect(signWebhook({ ...REFERENCE, secrets: [secret] })).rejects.toBeInstanceOf(TypeError);
    expect(() => webhookSecretKey(secret)).toThrow(TypeError);
  });

  it("refuses an empty list of secrets", async () => {
    await expect(signWebhook({ ...REFERENCE, secrets: [] })).rejects.toThrow(/No webhook secret/);
  });
});

describe("verifyWebhookSignature", () => {
  const valid = { ...REFERENCE, secrets: REFERENCE.secret };

  it.each([
    ["the reference signature", REFERENCE.signature],
    ["it among others (a rotation)", `v1,${"A".repeat(43)}= ${REFERENCE.signature}`],
    ["it after entries of other schemes", `v1a,xyz v2,abc ${REFERENCE.signature}`],
  ])("accepts %s", async (_name, signature) => {
    expect(await verifyWebhookSignature({ ...valid, signature })).toBe(true);
  });

  it.each([
    ["another scheme", REFERENCE.signature.replace("v1,", "v2,")],
    ["a changed byte", "v1,h0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE="],
    ["a truncated signature", REFERENCE.signature.slice(0, -4)],
    ["garbage", "v1,!!!not-base64"],
    ["nothing", ""],
  ])("refuses %s", async (_name, signature) => {
    expect(await verifyWebhookSignature({ ...valid, signature })).toBe(false);
  });

  it.each([
    ["another body", { body: '{"test": 2432232315}' }],
    ["another id", { id: "msg_other" }],
    ["another timestamp", { timestamp: REFERENCE.timestamp + 1 }],
    ["another secret", { secrets: SPEC_SECRET.secret }],
  ])("refuses the signature with %s", async (_name, change) => {
    expect(await verifyWebhookSignature({ ...valid, signature: REFERENCE.signature, ...change })).toBe(false);
  });

  it("accepts when any of several secrets made it (a receiver rolling a rotation out)", async () => {
    const secrets = [SPEC_SECRET.secret, REFERENCE.secret];
    expect(await verifyWebhookSignature({ ...REFERENCE, secrets, signature: REFERENCE.signature })).toBe(
      true,
    );
  });

  it("round-trips with fresh secrets and the timestamp header text", async () => {
    const secrets = [generateWebhookSecret(), generateWebhookSecret()];
    const signature = await signWebhook({ id: "evt_1", timestamp: 1700000000, body: "{}", secrets });
    for (const secret of secrets) {
      expect(
        await verifyWebhookSignature({
          id: "evt_1",
          timestamp: "1700000000",
          body: "{}",
          secrets: secret,
          signature,
        }),
      ).toBe(true);
    }
  });
});

describe("generateWebhookSecret", () => {
  it("makes whsec_ secrets of 32 random bytes, matching the spec's pattern", () => {
    const secret = generateWebhookSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{24,}={0,2}$/);
    expect(fromBase64(secret.slice(6))).toHaveLength(32);
    expect(webhookSecretKey(secret)).toHaveLength(32);
    expect(generateWebhookSecret()).not.toBe(secret);
  });
});

describe("signedWebhookHeaders", () => {
  it("puts the event id and the whole unix seconds of `now` in the signed headers", async () => {
    const expected = {
      "content-type": "application/json",
      "webhook-id": REFERENCE.id,
      "webhook-timestamp": String(REFERENCE.timestamp),
      "webhook-signature": REFERENCE.signature,
    };
    const at = REFERENCE.timestamp * 1000 + 999;
    const input = { id: REFERENCE.id, body: REFERENCE.body, secrets: [REFERENCE.secret] };
    expect(await signedWebhookHeaders({ ...input, now: at })).toEqual(expected);
    expect(await signedWebhookHeaders({ ...input, now: new Date(at) })).toEqual(expected);
  });
});
