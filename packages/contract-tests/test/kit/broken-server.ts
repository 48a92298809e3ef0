// A deliberately broken implementation: the standalone mock behind a proxy that gets exactly one
// rule of the contract wrong. The kit's own tests (kit.test.ts) run the kit against it, one fault
// at a time, and expect the test that names that rule to fail.
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { startMockServer } from "@oisr/mock-server/node";

export const FAULTS = {
  /** Ingest answers 200 instead of 202. */
  "ack-200": "POST /ingest/* answers 200 instead of 202",
  /** The acknowledgment loses its Retry-After polling hint. */
  "no-retry-after": "the 202 acknowledgment has no Retry-After",
  /** The client is told another secret than the one deliveries are signed with. */
  "webhook-secret": "webhooks are signed with another secret than the subscription's",
  /** The orders feed comes newest first. */
  "feed-order": "GET /orders lists the feed in reverse change order",
} as const;

export type Fault = keyof typeof FAULTS | "none";

export interface BrokenServer {
  baseUrl: string;
  origin: string;
  close(): Promise<void>;
}

const OTHER_SECRET = `whsec_${Buffer.from("not the secret the deliveries are signed with").toString("base64")}`;

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** Rewrites one answer of the mock according to `fault`; everything else passes unchanged. */
function rewrite(fault: Fault, method: string, path: string, status: number, headers: Headers, body: string) {
  const out = { status, headers: new Headers(headers), body };
  const ingest = method === "POST" && path.startsWith("/v2/ingest/") && status === 202;
  if (fault === "ack-200" && ingest) out.status = 200;
  if (fault === "no-retry-after" && ingest) out.headers.delete("retry-after");
  if (
    fault === "webhook-secret" &&
    method === "POST" &&
    /^\/v2\/webhook_subscriptions(\/[^/]+\/rotate_secret)?$/.test(path)
  ) {
    const parsed = JSON.parse(body) as { secret?: string };
    if (parsed.secret) out.body = JSON.stringify({ ...parsed, secret: OTHER_SECRET });
  }
  if (fault === "feed-order" && method === "GET" && path === "/v2/orders" && status === 200) {
    const parsed = JSON.parse(body) as { data: unknown[] };
    out.body = JSON.stringify({ ...parsed, data: [...parsed.data].reverse() });
  }
  return out;
}

export async function startBrokenServer(fault: Fault): Promise<BrokenServer> {
  // Tokens as strict as the server's (minted through the admin command), receivers on 127.0.0.1.
  const mock = await startMockServer({
    port: 0,
    acceptAnyToken: false,
    admin: true,
    rateLimits: false,
    webhooks: { allowPrivateNetworks: true },
  });
  const proxy = createServer(async (req: IncomingMessage, res: ServerResponse) => {
    try {
      const body = await readBody(req);
      const url = new URL(req.url ?? "/", mock.origin);
      const headers = new Headers();
      for (const [name, value] of Object.entries(req.headers))
        if (typeof value === "string" && name !== "host" && name !== "content-length")
          headers.set(name, value);
      const answer = await fetch(url, {
        method: req.method ?? "GET",
        headers,
        ...(body.length > 0 ? { body: new Uint8Array(body) } : {}),
      });
      const text = await answer.text();
      const out = rewrite(fault, req.method ?? "GET", url.pathname, answer.status, answer.headers, text);
      out.headers.delete("content-length");
      out.headers.delete("content-encoding");
      out.headers.delete("transfer-encoding");
      res.writeHead(out.status, Object.fromEntries(out.headers));
      res.end(out.body);
    } catch (error) {
      res.writeHead(502, { "content-type": "text/plain" }).end(String(error));
    }
  });
  await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve));
  const origin = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
  return {
    baseUrl: `${origin}/v2`,
    origin,
    async close() {
      proxy.closeAllConnections();
      await new Promise<void>((resolve) => proxy.close(() => resolve()));
      await mock.close();
    },
  };
}
