// A system whose feeds and lists read from a replica (`System.listsLag`) answers them as of a
// moment ago: a request the primary shows final may not be in GET /orders yet. The suite then does
// what a consumer of such a system does: it polls a lagging list until the write shows there.
//
// One write is enough to wait for. The replica shows a prefix of the primary's commit history
// (docs/decisions/021), and the request's final status commits in the same transaction as the
// changes and events it made: once GET /requests (a list the replica serves) shows the request
// final, every feed read after it shows those changes and everything committed before them. So
// each test keeps its checks as they are on every other target; only its waits are longer.

import { setTimeout as sleep } from "node:timers/promises";
import type { Api, Json } from "./client.ts";

/** Pages of GET /requests scanned per look; the request just finished is near the top. */
const MAX_PAGES = 20;

/** Whether GET /requests (filtered by `filters`) lists `requestId`. */
async function listedOnce(client: Api, requestId: string, filters: Record<string, string>): Promise<boolean> {
  const query = new URLSearchParams({ ...filters, limit: "200" });
  for (let page = 0; page < MAX_PAGES; page++) {
    const res = await client.get(`/requests?${query}`);
    if (res.status !== 200) throw new Error(`GET /requests answered ${res.status}: ${res.text}`);
    if (res.body.data.some((r: Json) => r.request_id === requestId)) return true;
    if (!res.body.has_more) return false;
    query.set("cursor", res.body.next_cursor);
  }
  return false;
}

async function until(
  client: Api,
  requestId: string,
  filters: Record<string, string>,
  timeoutMs: number,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await listedOnce(client, requestId, filters))) {
    if (Date.now() > deadline)
      throw new Error(
        `GET /requests did not list request ${requestId} ${JSON.stringify(filters)} within ${timeoutMs} ms`,
      );
    await sleep(20);
  }
}

/**
 * Waits until GET /requests lists `record` (a final record read from the primary) with its
 * status: from then on every list and feed includes what the request did.
 */
export function waitUntilListed(client: Api, record: Json, timeoutMs = 30_000): Promise<void> {
  return until(client, record.request_id, { status: record.status, kind: record.kind }, timeoutMs);
}

/**
 * On a system whose lists lag, waits until GET /requests lists the accepted request `requestId`
 * (in any status): from then on the lists include it and every request accepted before it.
 * Elsewhere it returns at once, so a test reads its lists exactly as before.
 */
export async function listsInclude(client: Api, requestId: string, timeoutMs = 30_000): Promise<void> {
  if (client.system.listsLag) await until(client, requestId, {}, timeoutMs);
}
