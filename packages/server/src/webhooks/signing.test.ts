import { createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import { generateSecret, secretKey, signatureHeader, signedHeaders } from "./signing.ts";

// The Standard Webhooks specification's published test vector (also in its reference libraries),
// so any Standard Webhooks verifier accepts our deliveries.
const VECTOR = {
  secret: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw",
  id: "msg_p5jXN8AQM9LWM0D4loKWxJek",
  timestamp: 1614265330,
  body: '{"test": 2432232314}',
  signature: "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=",
};

describe("webhook signing", () => {
  it("reproduces the Standard Webhooks reference signature", () => {
    expect(signatureHeader(VECTOR.id, VECTOR.timestamp, VECTOR.body, [VECTOR.secret])).toBe(VECTOR.signature);
  });

  it("signs with every live secret, space-separated, newest first", () => {
    const other = generateSecret();
    const header = signatureHeader(VECTOR.id, VECTOR.timestamp, VECTOR.body, [other, VECTOR.secret]);
    const [first, second] = header.split(" ");
    expect(second).toBe(VECTOR.signature);
    const expected = createHmac("sha256", secretKey(other))
      .update(`${VECTOR.id}.${VECTOR.timestamp}.${VECTOR.body}`)
      .digest("base64");
    expect(first).toBe(`v1,${expected}`);
  });

  it("makes whsec_ secrets of 32 random bytes", () => {
    const a = generateSecret();
    expect(a).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(secretKey(a)).toHaveLength(32);
    expect(generateSecret()).not.toBe(a);
  });

  it("puts the event id and unix-seconds timestamp in the headers it signs", () => {
    const headers = signedHeaders(
      VECTOR.id,
      VECTOR.body,
      [VECTOR.secret],
      new Date(VECTOR.timestamp * 1000 + 999),
    );
    expect(headers).toEqual({
      "content-type": "application/json",
      "webhook-id": VECTOR.id,
      "webhook-timestamp": String(VECTOR.timestamp),
      "webhook-signature": VECTOR.signature,
    });
  });
});
