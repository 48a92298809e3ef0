// Receiving OISR webhooks. The signing itself is @oisr/contract's, the very code the server and
// the mock sign deliveries with, bundled in; imported by its subpath so that the rest of the
// contract (the validator, the spec) stays out of the bundle. This file adds what a receiver needs.
import {
  generateWebhookSecret as newWebhookSecret,
  signedWebhookHeaders,
  verifyWebhookSignature,
  webhookSecretKey,
} from "@oisr/contract/webhook-signing";
import { WebhookVerificationError } from "./errors.ts";
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
 *     // Opt-in: a subscription listing request.failed hears of rejected ingest calls without polling.
 *     if (event.type === "request.failed") await reportRejected(event.data.object.errors);
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
  const secrets = typeof secret === "string" ? [secret] : secret;
  if (secrets.length === 0) throw new TypeError("verifyWebhook: no secret given");
  // A malformed secret is a configuration error: say so whatever the delivery looks like.
  for (const s of secrets) webhookSecretKey(s);
  const id = header(headers, "webhook-id");
  const timestamp = header(headers, "webhook-timestamp");
  const signature = header(headers, "webhook-signature");
  if (!id || !timestamp || !signature) {
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
  if (!(await verifyWebhookSignature({ id, timestamp, body, secrets, signature }))) {
    throw new WebhookVerificationError("No matching webhook signature");
  }
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
  const now = input.timestamp ?? new Date();
  return { body, headers: await signedWebhookHeaders({ id, body, secrets: input.secret, now }) };
}

/**
 * A fresh random `whsec_…` secret (32 random bytes, as the server makes them), for tests of a webhook receiver.
 *
 * @example
 * ```ts
 * const secret = generateWebhookSecret(); // "whsec_…"
 * ```
 */
export const generateWebhookSecret: () => string = newWebhookSecret;

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
  if (typeof body === "string") return new TextEncoder().encode(body);
  if (body instanceof ArrayBuffer) return new Uint8Array(body);
  return new Uint8Array(body.buffer, body.byteOffset, body.byteLength);
}
