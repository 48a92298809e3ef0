// A real webhook receiver for the black-box tests (on 127.0.0.1, or reachable at the kit's
// --webhook-host), and signature checking written from docs/product.md §6 (Standard Webhooks),
// independent of the server's own signing code. The one copy: the conformance kit exports it.
import { createHmac, timingSafeEqual } from "node:crypto";
import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { requireCapabilities } from "./current-test.ts";
import { receiverHost } from "./kit/config.ts";

export interface Received {
  headers: IncomingHttpHeaders;
  body: string;
  path: string;
  receivedAt: number;
  /** The status answered, once the answer was written completely; undefined while held or if the socket died. */
  answered?: number;
}

export type Answer =
  | number
  | {
      status: number;
      delayMs?: number;
      headers?: Record<string, string>;
      /** The answer's body; "ok" by default. */
      body?: string;
    };

export interface Receiver {
  url: string;
  received: Received[];
  /** Decides each answer (default 200 at once); may hold the request with `delayMs`. */
  respond: (req: Received, index: number) => Answer | Promise<Answer>;
  /** Parsed bodies of the deliveries answered with a 2xx. */
  acknowledged(): { id: string; type: string; data: { object: Record<string, unknown> } }[];
  close(): Promise<void>;
}

/**
 * Listens on 127.0.0.1:`port` (all interfaces under the kit's --webhook-host, which then names
 * the URL's host); 0, the default, takes a free port. In a test whose target cannot reach this
 * machine, skips the test with the reason.
 */
export async function startReceiver(respond: Receiver["respond"] = () => 200, port = 0): Promise<Receiver> {
  requireCapabilities("webhooks");
  const host = receiverHost();
  const receiver: Receiver = {
    url: "",
    received: [],
    respond,
    acknowledged: () =>
      receiver.received
        .filter((r) => r.answered !== undefined && r.answered >= 200 && r.answered < 300)
        .map((r) => JSON.parse(r.body)),
    close: async () => {},
  };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", async () => {
      const entry: Received = {
        headers: req.headers,
        body: Buffer.concat(chunks).toString("utf8"),
        path: req.url ?? "/",
        receivedAt: Date.now(),
      };
      const index = receiver.received.push(entry) - 1;
      const answer = await receiver.respond(entry, index);
      const {
        status,
        delayMs = 0,
        headers = {},
        body = "ok",
      } = typeof answer === "number" ? { status: answer } : answer;
      if (delayMs > 0) await new Promise((r) => setTimeout(r, delayMs));
      if (res.destroyed || req.socket.destroyed) return;
      res.once("finish", () => {
        entry.answered = status;
      });
      res.writeHead(status, { "content-type": "text/plain", ...headers }).end(body);
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host.listen, resolve);
  });
  receiver.url = `http://${host.url}:${(server.address() as AddressInfo).port}/hooks`;
  receiver.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return receiver;
}

export interface DownReceiver {
  /** A URL whose port nothing listens on: every attempt is refused at connect. */
  url: string;
  /** The receiver comes back: listening on the same port, so the subscription's URL reaches it. */
  start(respond?: Receiver["respond"]): Promise<Receiver>;
}

/**
 * A receiver that is down (connection refused) until `start`. Its port is one the system chose
 * free a moment ago and released: Linux gives bind(0) ports of the other parity than the source
 * ports connect() tries first, so an attempt does not connect to itself there.
 */
export async function downReceiver(): Promise<DownReceiver> {
  const reserved = await startReceiver();
  await reserved.close();
  const port = Number(new URL(reserved.url).port);
  return { url: reserved.url, start: (respond) => startReceiver(respond, port) };
}

/**
 * docs/product.md §6: `webhook-signature` holds `v1,<base64 HMAC-SHA256 of "{id}.{timestamp}.{body}">`
 * keyed with the base64-decoded part of the secret after `whsec_`, one per live secret, space-separated.
 * True when one of them was made with `secret`.
 */
export function verifySignature(received: Received, secret: string): boolean {
  if (!secret.startsWith("whsec_")) return false;
  const id = String(received.headers["webhook-id"] ?? "");
  const timestamp = String(received.headers["webhook-timestamp"] ?? "");
  if (!id || !/^\d+$/.test(timestamp)) return false;
  const key = Buffer.from(secret.slice("whsec_".length), "base64");
  const expected = createHmac("sha256", key).update(`${id}.${timestamp}.${received.body}`).digest();
  return String(received.headers["webhook-signature"] ?? "")
    .split(" ")
    .some((entry) => {
      const [version, signature] = entry.split(",", 2);
      if (version !== "v1" || !signature) return false;
      const given = Buffer.from(signature, "base64");
      return given.length === expected.length && timingSafeEqual(given, expected);
    });
}
