// Sends one webhook attempt. The URL is checked again here, after DNS resolution, and the socket
// is pinned to the checked addresses through `lookup`, so a host that re-resolves to a private
// address between check and connect (DNS rebinding) is never reached. Redirects are not followed:
// a 3xx could point anywhere, so it counts as a failed attempt.
import http from "node:http";
import https from "node:https";
import type { LookupFunction } from "node:net";
import {
  type AttemptResult,
  answeredAttempt,
  responseSnippet,
  unansweredAttemptError,
  WEBHOOK_RESPONSE_BODY_MAX_BYTES,
  WEBHOOK_USER_AGENT,
} from "@oisr/contract";
import { checkWebhookUrl, type ResolvedAddress, type Resolver } from "./ssrf-guard.ts";

export interface SendOptions {
  allowPrivateNetworks: boolean;
  timeoutMs: number;
  resolve?: Resolver;
  /** Aborts the attempt (shutdown). */
  signal?: AbortSignal;
  /**
   * Aborted when the receiver paused the subscription (Retry-After) while this attempt was on its
   * way: if the request has not gone out yet, it does not, and the sender answers null.
   */
  hold?: AbortSignal;
}

/** The attempt's outcome, or null when it was not sent because `options.hold` was aborted first. */
export type WebhookSender = (
  url: string,
  headers: Record<string, string>,
  body: string,
  options: SendOptions,
) => Promise<AttemptResult | null>;

/** A `lookup` that answers only with addresses the guard already checked. */
export function pinnedLookup(addresses: ResolvedAddress[]): LookupFunction {
  return ((_hostname: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
    if (options?.all)
      callback(
        null,
        addresses.map((a) => ({ address: a.address, family: a.family })),
      );
    else callback(null, addresses[0]?.address, addresses[0]?.family);
  }) as LookupFunction;
}

export const sendWebhook: WebhookSender = async (url, headers, body, options) => {
  const started = performance.now();
  const elapsed = () => performance.now() - started;
  const check = await checkWebhookUrl(url, {
    allowPrivateNetworks: options.allowPrivateNetworks,
    resolve: options.resolve,
  });
  if (!check.ok) return { ok: false, error: `url not allowed: ${check.reason}`, durationMs: elapsed() };
  // The last moment before the request is written: DNS can take a while, and a pause heard meanwhile still holds it back.
  if (options.hold?.aborted) return null;

  const timeout = AbortSignal.timeout(options.timeoutMs);
  const signal = options.signal ? AbortSignal.any([timeout, options.signal]) : timeout;
  const client = check.url.protocol === "https:" ? https : http;
  return new Promise<AttemptResult>((resolve) => {
    let settled = false;
    /** Set once the answer's head came: an error after that (the abort signal) keeps the answer. */
    let keepAnswer: (() => void) | undefined;
    const settle = (result: AttemptResult) => {
      if (settled) return;
      settled = true;
      resolve(result);
    };
    const req = client.request(
      check.url,
      {
        method: "POST",
        headers: {
          ...headers,
          "content-length": String(Buffer.byteLength(body)),
          "user-agent": WEBHOOK_USER_AGENT,
        },
        signal,
        // A fresh connection per attempt: a pooled socket could be one made to an address checked earlier.
        agent: false,
        ...(check.addresses.length > 0 ? { lookup: pinnedLookup(check.addresses) } : {}),
      },
      (res) => {
        const status = res.statusCode ?? 0;
        // A 429 or 503 may carry Retry-After: the receiver's "slow down" (kept by answeredAttempt).
        const answered = answeredAttempt(status, elapsed(), res.headers["retry-after"]);
        const contentType = res.headers["content-type"];
        // The start of the body only, for the deliveries log (a receiver's "why"): read up to the
        // limit, then the connection is closed and the rest never read. The abort signal bounds
        // the wait; what came before it is kept.
        const chunks: Buffer[] = [];
        let size = 0;
        const done = () => {
          settle({ ...answered, response: responseSnippet(Buffer.concat(chunks, size), contentType) });
          res.destroy();
        };
        res.on("data", (chunk: Buffer) => {
          const room = WEBHOOK_RESPONSE_BODY_MAX_BYTES - size;
          if (room <= 0) return;
          const kept = chunk.length > room ? chunk.subarray(0, room) : chunk;
          chunks.push(kept);
          size += kept.length;
          if (size >= WEBHOOK_RESPONSE_BODY_MAX_BYTES) done();
        });
        keepAnswer = done;
        res.on("end", done);
        res.on("close", done);
        res.on("error", done);
      },
    );
    req.on("error", (err) => {
      if (keepAnswer) keepAnswer();
      else settle({ ok: false, error: unansweredAttemptError(err, timeout.aborted), durationMs: elapsed() });
    });
    req.end(body);
  });
};
