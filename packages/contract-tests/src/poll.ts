// Polling with a deadline: short intervals keep the suite fast, the deadline keeps a hung
// request from hanging the suite.
import type { Api, Json } from "./client.ts";
import { waitUntilListed } from "./replica-lag.ts";

export const FINAL = new Set(["succeeded", "failed", "dead"]);

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

export interface PollOptions {
  timeoutMs?: number;
  intervalMs?: number;
}

/** Calls `check` until it returns something other than `undefined`, or fails after the deadline. */
export async function waitFor<T>(
  check: () => Promise<T | undefined>,
  what: string,
  { timeoutMs = 30_000, intervalMs = 20 }: PollOptions = {},
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(intervalMs);
  }
}

export interface WaitOptions extends PollOptions {
  /** Sees every record read on the way (to check the invariants of intermediate states). */
  observe?: (record: Json) => void;
}

/**
 * Polls GET /requests/{id} until the request is final and returns the final record. On a system
 * whose lists lag (a read replica), also until GET /requests lists it so (src/replica-lag.ts).
 */
export async function waitForRequest(
  client: Api,
  requestId: string,
  options: WaitOptions = {},
): Promise<Json> {
  const final = await waitForFinal(client, requestId, options);
  if (client.system.listsLag) await waitUntilListed(client, final, options.timeoutMs);
  return final;
}

async function waitForFinal(client: Api, requestId: string, options: WaitOptions): Promise<Json> {
  let last: Json;
  try {
    return await waitFor(
      async () => {
        const res = await client.get(`/requests/${requestId}`);
        if (res.status !== 200)
          throw new Error(`GET /requests/${requestId} answered ${res.status}: ${res.text}`);
        last = res.body;
        options.observe?.(res.body);
        return FINAL.has(res.body.status) ? res.body : undefined;
      },
      `request ${requestId} to be final`,
      options,
    );
  } catch (err) {
    if (last) (err as Error).message += `; last seen: ${JSON.stringify(last)}`;
    throw err;
  }
}
