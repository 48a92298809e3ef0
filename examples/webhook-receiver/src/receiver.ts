// A webhook endpoint on plain node:http: verify the signature on the raw bytes, answer 204 fast,
// and hand each event to the application once (deliveries are at-least-once).
import { createServer, type IncomingMessage, type Server } from "node:http";
import { verifyWebhook, type WebhookEvent, WebhookVerificationError } from "@oisr/sdk";
import { assertSecrets } from "./secret.ts";

export interface ReceiverOptions {
  /** The subscription's `whsec_…` secret; during a rotation, [new, old]. */
  secret: string | string[];
  onEvent: (event: WebhookEvent) => Promise<void> | void;
  /** Event ids already handled. Use a database table in production; a Set forgets on restart. */
  seen?: Set<string>;
  /** Largest body accepted, in bytes. */
  maxBytes?: number;
  /** Where a rejected delivery's reason is written, one line each. Default: console.error. */
  log?: (line: string) => void;
}

const SIGNATURE_HEADERS = ["webhook-id", "webhook-timestamp", "webhook-signature"] as const;

/**
 * Why a delivery was rejected, in a line for the log and the 400's body (OISR keeps the start of
 * that body in the deliveries log, GET /v2/webhook_subscriptions/{id}/deliveries: `response_body`).
 */
export function rejectionReason(
  error: WebhookVerificationError,
  headers: IncomingMessage["headers"],
): string {
  const missing = SIGNATURE_HEADERS.filter((name) => !headers[name]);
  if (missing.length > 0) {
    return `missing header${missing.length > 1 ? "s" : ""} ${missing.join(", ")}: not a delivery from OISR, or a proxy dropped them`;
  }
  const message = error.message;
  if (/^invalid webhook-timestamp/i.test(message)) {
    return "invalid webhook-timestamp: not whole unix seconds; not a delivery from OISR";
  }
  if (/timestamp/i.test(message)) {
    return `timestamp outside tolerance: ${message}; is this machine's clock right? (or the delivery was replayed)`;
  }
  if (/signature/i.test(message)) {
    return "signature mismatch: is OISR_WEBHOOK_SECRET the secret of this subscription? After rotate_secret, use the new one";
  }
  return message;
}

async function readBody(req: IncomingMessage, maxBytes: number): Promise<Buffer | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > maxBytes) return undefined;
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

export function createReceiver(options: ReceiverOptions): Server {
  const seen = options.seen ?? new Set<string>();
  const log = options.log ?? ((line: string) => console.error(line));
  // A malformed secret fails here, not at the first delivery.
  assertSecrets(options.secret);
  // options.secret is read on every delivery, so a caller may swap it (after a rotation) in place.
  return createServer(async (req, res) => {
    if (req.method !== "POST" || req.url !== "/webhooks/oisr") {
      res.writeHead(404).end();
      return;
    }
    const body = await readBody(req, options.maxBytes ?? 1024 * 1024);
    if (!body) {
      res.writeHead(413).end();
      return;
    }
    let event: WebhookEvent;
    try {
      // The raw bytes, not re-serialized JSON: the signature covers them exactly.
      event = await verifyWebhook(body, req.headers, options.secret);
    } catch (error) {
      const id =
        typeof req.headers["webhook-id"] === "string" ? req.headers["webhook-id"] : "(no webhook-id)";
      if (!(error instanceof WebhookVerificationError)) {
        // A secret swapped in since start-up that is not whsec_<base64>: ours to fix, so a 500
        // (OISR retries later) rather than a 400, and no crash.
        log(`webhook ${id} not verified: ${(error as Error).message}`);
        res.writeHead(500, { "content-type": "text/plain; charset=utf-8" }).end("receiver misconfigured\n");
        return;
      }
      const reason = rejectionReason(error, req.headers);
      log(`webhook ${id} rejected (400): ${reason}`);
      res.writeHead(400, { "content-type": "text/plain; charset=utf-8" }).end(`${reason}\n`);
      return;
    }
    if (!seen.has(event.id)) {
      try {
        await options.onEvent(event);
      } catch (error) {
        // A 5xx makes OISR retry later, with backoff; the event is not marked as seen.
        console.error("webhook handler failed", error);
        res.writeHead(500).end();
        return;
      }
      seen.add(event.id);
    }
    res.writeHead(204).end();
  });
}
