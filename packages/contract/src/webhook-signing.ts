// Standard Webhooks signatures (docs/product.md §6), one implementation for the server's sender,
// the mock's dispatcher and the SDK's verifier. Web Crypto, not node:crypto, because the mock and
// the SDK run in browsers and edge runtimes: `webhook-signature` is `v1,<base64 HMAC-SHA256 of
// "{id}.{timestamp}.{body}">` keyed with the base64-decoded part of the secret after `whsec_`,
// one entry per live secret (two during the 24 h after a rotation), space-separated.
import { base64, fromBase64 } from "./base64.ts";

export const WEBHOOK_SECRET_PREFIX = "whsec_";
/** A 256-bit HMAC key, as the spec's WebhookSecret documents. */
export const WEBHOOK_SECRET_BYTES = 32;

/** One secret, or several (newest first) while a rotation's old secret still signs. */
export type WebhookSecrets = string | readonly string[];
/** The raw body: a receiver must verify the bytes it got, not JSON it re-serialised. */
export type WebhookPayloadBytes = string | Uint8Array;

export interface WebhookSignatureInput {
  /** `webhook-id`: the event id, kept when a delivery is sent again. */
  id: string;
  /** `webhook-timestamp` in unix seconds (a receiver passes the header text as it came). */
  timestamp: number | string;
  body: WebhookPayloadBytes;
  secrets: WebhookSecrets;
}

export interface SignedWebhookHeaders {
  "content-type": "application/json";
  "webhook-id": string;
  "webhook-timestamp": string;
  "webhook-signature": string;
}

const encoder = new TextEncoder();

/** A new signing secret: `whsec_` + base64 of 32 random bytes. */
export function generateWebhookSecret(): string {
  const key = globalThis.crypto.getRandomValues(new Uint8Array(WEBHOOK_SECRET_BYTES));
  return WEBHOOK_SECRET_PREFIX + base64(key);
}

/** The HMAC key of a secret. A malformed secret is a configuration error, hence TypeError. */
export function webhookSecretKey(secret: string): Uint8Array {
  let key: Uint8Array | undefined;
  if (secret.startsWith(WEBHOOK_SECRET_PREFIX)) {
    try {
      key = fromBase64(secret.slice(WEBHOOK_SECRET_PREFIX.length));
    } catch {
      key = undefined;
    }
  }
  if (!key || key.length === 0) throw new TypeError("Webhook secret must look like whsec_<base64>");
  return key;
}

/** `webhook-timestamp` for a moment: whole unix seconds. */
export function webhookTimestamp(now: Date | number): number {
  return Math.floor((typeof now === "number" ? now : now.getTime()) / 1000);
}

/** The `webhook-signature` header value: one `v1,<base64>` per secret, in the order given. */
export async function signWebhook(input: WebhookSignatureInput): Promise<string> {
  const macs = await macsOf(input);
  return macs.map((mac) => `v1,${base64(mac)}`).join(" ");
}

/**
 * Whether any `v1,` entry of a `webhook-signature` header was made with any of the secrets. Each
 * secret's MAC is computed once and compared with every entry in constant time, so a header
 * stuffed with entries costs comparisons, not HMACs, and timing reveals no matching prefix.
 */
export async function verifyWebhookSignature(
  input: WebhookSignatureInput & { signature: string },
): Promise<boolean> {
  const macs = await macsOf(input);
  const candidates: Uint8Array[] = [];
  for (const entry of input.signature.split(" ")) {
    if (!entry.startsWith("v1,")) continue;
    try {
      candidates.push(fromBase64(entry.slice(3)));
    } catch {
      // Not base64: matches nothing, like any other wrong signature.
    }
  }
  let matched = false;
  for (const mac of macs) for (const candidate of candidates) if (sameBytes(mac, candidate)) matched = true;
  return matched;
}

/** The four headers of a delivery, signed at `now`. */
export async function signedWebhookHeaders(input: {
  id: string;
  body: string;
  secrets: WebhookSecrets;
  now: Date | number;
}): Promise<SignedWebhookHeaders> {
  const timestamp = webhookTimestamp(input.now);
  return {
    "content-type": "application/json",
    "webhook-id": input.id,
    "webhook-timestamp": String(timestamp),
    "webhook-signature": await signWebhook({ ...input, timestamp }),
  };
}

async function macsOf(input: WebhookSignatureInput): Promise<Uint8Array[]> {
  const secrets = typeof input.secrets === "string" ? [input.secrets] : input.secrets;
  if (secrets.length === 0) throw new TypeError("No webhook secret given");
  // Keys first: a malformed secret throws before any work, whatever the order of the secrets.
  const keys = secrets.map(webhookSecretKey);
  const prefix = encoder.encode(`${input.id}.${input.timestamp}.`);
  const body = typeof input.body === "string" ? encoder.encode(input.body) : input.body;
  const content = new Uint8Array(prefix.length + body.length);
  content.set(prefix, 0);
  content.set(body, prefix.length);
  const subtle = globalThis.crypto.subtle;
  return Promise.all(
    keys.map(async (raw) => {
      const key = await subtle.importKey(
        "raw",
        raw as Uint8Array<ArrayBuffer>,
        { name: "HMAC", hash: "SHA-256" },
        false,
        ["sign"],
      );
      return new Uint8Array(await subtle.sign("HMAC", key, content));
    }),
  );
}

/** No early exit: the time taken does not tell how many leading bytes matched. */
function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= (a[i] as number) ^ (b[i] as number);
  return diff === 0;
}
