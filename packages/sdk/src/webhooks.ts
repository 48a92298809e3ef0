import { WebhookVerificationError } from "./errors.ts";
import { base64ToBytes, bytesToBase64 } from "./internal/base64.ts";
import type { WebhookEvent } from "./types.ts";

/** Headers as a `Headers` object (fetch, Deno, Bun, Workers) or a plain record (Node's `req.headers`, express). */
export type WebhookHeaders =
  | Headers
  | Readonly<Record<string, string | readonly string[] | null | undefined>>;

/** A raw body exactly as received: verify before parsing, since re-serialised JSON will not match. */
export type WebhookBody = string | ArrayBuffer | ArrayBufferView;

export interface VerifyWebhookOptions {
  /** Largest accepted distance between `webhook-timestamp` and now, in seconds (both ways). Default 300. */
  toleranceSeconds?: number;
  /** The current time, for tests. */
  now?: Date;
}

export interface SignWebhookInput {
  /** The event (serialised with `JSON.stringify`) or an already serialised body. */
  payload: WebhookEvent | string;
  /** One `whsec_…` secret, or several to mimic the 24 h after a rotation (one signature each). */
  secret: string | readonly string[];
  /** `webhook-id`; defaults to the event's `id`. */
  id?: string;
  /** `webhook-timestamp`; defaults to now. */
  timestamp?: Date;
}

export interface SignedWebhook {
  /** The body to send, byte for byte the one that was signed. */
  body: string;
  headers: {
    "webhook-id": string;
    "webhook-timestamp": string;
    "webhook-signature": string;
    "content-type": "application/json";
  };
}

const SECRET_PREFIX = "whsec_";
const encoder = new TextEncoder();

/**
 * Verifies a webhook delivery (Standard Webhooks: `webhook-id`, `webhook-timestamp`,
 * `webhook-signature`) with Web Crypto HMAC-SHA256, and returns the parsed, typed event.
 *
 * Accepts the delivery when any `v1,` signature in the header matches any of the given secrets
 * (compared in constant time), and the timestamp is within `toleranceSeconds` of now, which
 * bounds replays. Pass both the old and the new secret while you roll a rotation out.
 * Deliveries are at-least-once: deduplicate on `event.id` (the `webhook-id`).
 *
 * @throws {WebhookVerificationError} missing headers, no matching signature, stale timestamp or a body that is not JSON: answer `400`.
 * @throws {TypeError} a secret that is not `whsec_<base64>` (a configuration error, not a bad delivery).
 *
 * @example
 * ```ts
 * // express: keep the raw body
 * app.post("/webhooks/oisr", express.raw({ type: "application/json" }), async (req, res) => {
 *   try {
 *     const event = await verifyWebhook(req.body, req.headers, process.env.OISR_WEBHOOK_SECRET!);
 *     if (event.type === "return.completed") await refund(event.data.object);
 *     res.sendStatus(204);
 *   } catch (err) {
 *     res.sendStatus(err instanceof WebhookVerificationError ? 400 : 500);
 *   }
 * });
 *
 * // fetch-style handlers (Deno, Bun, Workers, Next.js route handlers)
 * const event = await verifyWebhook(await request.text(), request.headers, secret);
 * ```
 */
export async function verifyWebhook(
  rawBody: WebhookBody,
  headers: WebhookHeaders,
  secret: string | readonly string[],
  options: VerifyWebhookOptions = {},
): Promise<WebhookEvent> {
  const keys = await Promise.all(secrets(secret).map(importSecret));
  const id = header(headers, "webhook-id");
  const timestamp = header(headers, "webhook-timestamp");
  const signatureHeader = header(headers, "webhook-signature");
  if (!id || !timestamp || !signatureHeader) {
    throw new WebhookVerificationError("Missing webhook-id, webhook-timestamp or webhook-signature header");
  }
  if (!/^\d+$/.test(timestamp)) throw new WebhookVerificationError("Invalid webhook-timestamp");

  const tolerance = options.toleranceSeconds ?? 300;
  const nowSeconds = Math.floor((options.now ?? new Date()).getTime() / 1000);
  const age = nowSeconds - Number(timestamp);
  if (age > tolerance)
    throw new WebhookVerificationError(`Webhook timestamp is ${age} s old (tolerance ${tolerance} s)`);
  if (age < -tolerance)
    throw new WebhookVerificationError(
      `Webhook timestamp is ${-age} s in the future (tolerance ${tolerance} s)`,
    );

  const body = bodyBytes(rawBody);
  const signed = concat(encoder.encode(`${id}.${timestamp}.`), body);
  const candidates = signatureHeader
    .split(" ")
    .filter((part) => part.startsWith("v1,"))
    .map((part) => base64ToBytes(part.slice(3)))
    .filter((bytes): bytes is Uint8Array => bytes !== undefined);

  let matched = false;
  for (const key of keys) {
    const expected = new Uint8Array(await crypto.subtle.sign("HMAC", key, signed));
    for (const candidate of candidates) if (timingSafeEqual(expected, candidate)) matched = true;
  }
  if (!matched) throw new WebhookVerificationError("No matching webhook signature");

  try {
    return JSON.parse(new TextDecoder().decode(body)) as WebhookEvent;
  } catch {
    throw new WebhookVerificationError("Webhook body is not JSON");
  }
}

/**
 * Signs a payload the way the OISR server does, so that a receiver can be unit-tested without
 * the server.
 *
 * @example
 * ```ts
 * const secret = generateWebhookSecret();
 * const { body, headers } = await signWebhook({ payload: event, secret });
 * const res = await app.request("/webhooks/oisr", { method: "POST", body, headers });
 * expect(res.status).toBe(204);
 * ```
 */
export async function signWebhook(input: SignWebhookInput): Promise<SignedWebhook> {
  const body = typeof input.payload === "string" ? input.payload : JSON.stringify(input.payload);
  const id =
    input.id ??
    (typeof input.payload === "string" ? undefined : input.payload.id) ??
    `evt_${crypto.randomUUID()}`;
  const timestamp = String(Math.floor((input.timestamp ?? new Date()).getTime() / 1000));
  const signed = encoder.encode(`${id}.${timestamp}.${body}`);
  const signatures: string[] = [];
  for (const key of await Promise.all(secrets(input.secret).map(importSecret))) {
    signatures.push(`v1,${bytesToBase64(new Uint8Array(await crypto.subtle.sign("HMAC", key, signed)))}`);
  }
  return {
    body,
    headers: {
      "webhook-id": id,
      "webhook-timestamp": timestamp,
      "webhook-signature": signatures.join(" "),
      "content-type": "application/json",
    },
  };
}

/**
 * A fresh random `whsec_…` secret (24 random bytes), for tests of a webhook receiver.
 *
 * @example
 * ```ts
 * const secret = generateWebhookSecret(); // "whsec_…"
 * ```
 */
export function generateWebhookSecret(): string {
  return SECRET_PREFIX + bytesToBase64(crypto.getRandomValues(new Uint8Array(24)));
}

function secrets(secret: string | readonly string[]): readonly string[] {
  const list = typeof secret === "string" ? [secret] : secret;
  if (list.length === 0) throw new TypeError("verifyWebhook: no secret given");
  return list;
}

function importSecret(secret: string): Promise<CryptoKey> {
  const raw = secret.startsWith(SECRET_PREFIX)
    ? base64ToBytes(secret.slice(SECRET_PREFIX.length))
    : undefined;
  if (!raw || raw.length === 0) throw new TypeError("Webhook secret must look like whsec_<base64>");
  return crypto.subtle.importKey(
    "raw",
    raw as Uint8Array<ArrayBuffer>,
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["sign"],
  );
}

function header(headers: WebhookHeaders, name: string): string | undefined {
  if (typeof (headers as Headers).get === "function") {
    return (headers as Headers).get(name) ?? undefined;
  }
  const record = headers as Readonly<Record<string, string | readonly string[] | null | undefined>>;
  const key = Object.keys(record).find((k) => k.toLowerCase() === name);
  const value = key === undefined ? undefined : record[key];
  if (value === null || value === undefined) return undefined;
  return typeof value === "string" ? value : value.join(" ");
}

function bodyBytes(body: WebhookBody): Uint8Array {
  if (typeof body === "string") return encoder.encode(body);
  if (body instanceof ArrayBuffer) return new Uint8Array(body);
  return new Uint8Array(body.buffer, body.byteOffset, body.byteLength);
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(a.length + b.length);
  out.set(a, 0);
  out.set(b, a.length);
  return out;
}

/** Compares without an early exit, so the time taken does not reveal how many leading bytes matched. */
function timingSafeEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= (a[i] as number) ^ (b[i] as number);
  return diff === 0;
}
