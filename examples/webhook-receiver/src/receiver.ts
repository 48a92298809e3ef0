// A webhook endpoint on plain node:http: verify the signature on the raw bytes, answer 204 fast,
// and hand each event to the application once (deliveries are at-least-once).
import { createServer, type IncomingMessage, type Server } from "node:http";
import { verifyWebhook, type WebhookEvent, WebhookVerificationError } from "@oisr/sdk";

export interface ReceiverOptions {
  /** The subscription's `whsec_…` secret; during a rotation, [new, old]. */
  secret: string | string[];
  onEvent: (event: WebhookEvent) => Promise<void> | void;
  /** Event ids already handled. Use a database table in production; a Set forgets on restart. */
  seen?: Set<string>;
  /** Largest body accepted, in bytes. */
  maxBytes?: number;
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
      if (!(error instanceof WebhookVerificationError)) throw error;
      res.writeHead(400, { "content-type": "text/plain" }).end(error.message);
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
