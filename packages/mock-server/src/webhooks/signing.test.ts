import { describe, expect, it } from "vitest";
import { fromBase64 } from "../ids.ts";
import { generateSecret, signatureHeader, signedHeaders } from "./signing.ts";

// The Standard Webhooks specification's published test vector: any Standard Webhooks verifier
// accepts what the mock signs, with Web Crypto only.
const VECTOR = {
  secret: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw",
  id: "msg_p5jXN8AQM9LWM0D4loKWxJek",
  timestamp: 1614265330,
  body: '{"test": 2432232314}',
  signature: "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=",
};

describe("webhook signing (Web Crypto)", () => {
  it("reproduces the Standard Webhooks reference signature", async () => {
    expect(await signatureHeader(VECTOR.id, VECTOR.timestamp, VECTOR.body, [VECTOR.secret])).toBe(
      VECTOR.signature,
    );
  });

  it("signs with every live secret, space-separated, in the order given", async () => {
    const header = await signatureHeader(VECTOR.id, VECTOR.timestamp, VECTOR.body, [
      generateSecret(),
      VECTOR.secret,
    ]);
    const [first, second] = header.split(" ");
    expect(first).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/);
    expect(second).toBe(VECTOR.signature);
  });

  it("makes whsec_ secrets of 32 random bytes", () => {
    const secret = generateSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(fromBase64(secret.slice(6))).toHaveLength(32);
    expect(generateSecret()).not.toBe(secret);
  });

  it("puts the event id and the unix-seconds timestamp in the signed headers", async () => {
    expect(
      await signedHeaders(VECTOR.id, VECTOR.body, [VECTOR.secret], VECTOR.timestamp * 1000 + 999),
    ).toEqual({
      "content-type": "application/json",
      "webhook-id": VECTOR.id,
      "webhook-timestamp": String(VECTOR.timestamp),
      "webhook-signature": VECTOR.signature,
    });
  });
});
