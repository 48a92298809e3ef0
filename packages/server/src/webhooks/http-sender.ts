// Sends one webhook attempt. The URL is checked again here, after DNS resolution, and the socket
// is pinned to the checked addresses through `lookup`, so a host that re-resolves to a private
// address between check and connect (DNS rebinding) is never reached. Redirects are not followed:
// a 3xx could point anywhere, so it counts as a failed attempt.
import http from "node:http";
import https from "node:https";
import type { LookupFunction } from "node:net";
import { answeredAttempt, unansweredAttemptError, WEBHOOK_USER_AGENT } from "@oisr/contract";
import type { AttemptResult } from "./deliveries-store.ts";
import { checkWebhookUrl, type ResolvedAddress, type Resolver } from "./ssrf-guard.ts";

export interface SendOptions {
  allowPrivateNetworks: boolean;
  timeoutMs: number;
  resolve?: Resolver;
  /** Aborts the attempt (shutdown). */
  signal?: AbortSignal;
}

export type WebhookSender = (
  url: string,
  headers: Record<string, string>,
  body: string,
  options: SendOptions,
) => Promise<AttemptResult>;

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

  const timeout = AbortSignal.timeout(options.timeoutMs);
  const signal = options.signal ? AbortSignal.any([timeout, options.signal]) : timeout;
  const client = check.url.protocol === "https:" ? https : http;
  return new Promise<AttemptResult>((resolve) => {
    let settled = false;
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
        // The body does not matter; drain it so the socket closes, bounded by the same abort signal.
        res.on("error", () => {});
        res.resume();
        // A 429 or 503 may carry Retry-After: the receiver's "slow down" (kept by answeredAttempt).
        settle(answeredAttempt(status, elapsed(), res.headers["retry-after"]));
      },
    );
    req.on("error", (err) =>
      settle({ ok: false, error: unansweredAttemptError(err, timeout.aborted), durationMs: elapsed() }),
    );
    req.end(body);
  });
};
