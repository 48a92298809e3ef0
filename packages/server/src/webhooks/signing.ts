// Standard Webhooks signatures with node:crypto: a 10-line HMAC does not justify a runtime
// dependency, and the reference test vector (signing.test.ts) pins us to the specification.
import { createHmac, randomBytes } from "node:crypto";

const PREFIX = "whsec_";

/** A new signing secret: `whsec_` + base64 of 32 random bytes (256-bit HMAC key). */
export function generateSecret(): string {
  return PREFIX + randomBytes(32).toString("base64");
}

/** The HMAC key of a secret: the base64 after `whsec_`. */
export function secretKey(secret: string): Buffer {
  if (!secret.startsWith(PREFIX)) throw new TypeError("webhook secret must start with whsec_");
  return Buffer.from(secret.slice(PREFIX.length), "base64");
}

/** One `v1,<base64>` entry per secret, space-separated, in the order given. */
export function signatureHeader(
  id: string,
  timestampSeconds: number,
  body: string,
  secrets: readonly string[],
): string {
  const content = `${id}.${timestampSeconds}.${body}`;
  return secrets
    .map((secret) => `v1,${createHmac("sha256", secretKey(secret)).update(content).digest("base64")}`)
    .join(" ");
}

export interface SignedHeaders {
  "content-type": "application/json";
  "webhook-id": string;
  "webhook-timestamp": string;
  "webhook-signature": string;
}

export function signedHeaders(
  id: string,
  body: string,
  secrets: readonly string[],
  now: Date = new Date(),
): SignedHeaders {
  const timestamp = Math.floor(now.getTime() / 1000);
  return {
    "content-type": "application/json",
    "webhook-id": id,
    "webhook-timestamp": String(timestamp),
    "webhook-signature": signatureHeader(id, timestamp, body, secrets),
  };
}
