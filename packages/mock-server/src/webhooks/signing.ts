// Standard Webhooks signatures with Web Crypto, so deliveries are signed the same way in
// browsers and Node: `v1,<base64 HMAC-SHA256 of "{id}.{timestamp}.{body}">` keyed with the
// base64-decoded part of the secret after `whsec_`, one entry per live secret.
import { base64, fromBase64, randomBytes } from "../ids.ts";

const PREFIX = "whsec_";

export function generateSecret(): string {
  return PREFIX + base64(randomBytes(32));
}

async function sign(secret: string, content: string): Promise<string> {
  if (!secret.startsWith(PREFIX)) throw new TypeError("webhook secret must start with whsec_");
  const key = await globalThis.crypto.subtle.importKey(
    "raw",
    fromBase64(secret.slice(PREFIX.length)) as Uint8Array<ArrayBuffer>,
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["sign"],
  );
  const mac = await globalThis.crypto.subtle.sign("HMAC", key, new TextEncoder().encode(content));
  return base64(new Uint8Array(mac));
}

export async function signatureHeader(
  id: string,
  timestampSeconds: number,
  body: string,
  secrets: readonly string[],
): Promise<string> {
  const content = `${id}.${timestampSeconds}.${body}`;
  const signatures = await Promise.all(secrets.map(async (s) => `v1,${await sign(s, content)}`));
  return signatures.join(" ");
}

export async function signedHeaders(
  id: string,
  body: string,
  secrets: readonly string[],
  nowMs: number,
): Promise<Record<string, string>> {
  const timestamp = Math.floor(nowMs / 1000);
  return {
    "content-type": "application/json",
    "webhook-id": id,
    "webhook-timestamp": String(timestamp),
    "webhook-signature": await signatureHeader(id, timestamp, body, secrets),
  };
}
