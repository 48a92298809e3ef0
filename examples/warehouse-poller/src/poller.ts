// Follows the orders change feed page by page: each page's orders and the cursor after the page
// go into the store in one transaction (OrderStore.applyPage), so the stored cursor never runs
// ahead of the stored orders, nor behind them. A restart resumes from the stored cursor without
// missing or repeating a page. (`client.orders.changes()` yields one order at a time with its own
// cursor, which suits a consumer that handles orders one by one; a database is better fed in
// pages.)
import { setTimeout as sleep } from "node:timers/promises";
import type { OisrClient, OrderPage } from "@oisr/sdk";
import type { OrderStore, UpsertOutcome } from "./order-store.ts";

export interface PollerOptions {
  client: OisrClient;
  store: OrderStore;
  /** Orders per page, 1–200. Default 200. */
  pageSize?: number;
  /** Pause at the end of the feed before polling again. Default 5 000 ms. */
  intervalMs?: number;
  /** Ends the loop (normally, without an error). */
  signal?: AbortSignal;
  /** Called for every order of a page once the page is committed. */
  onChange?: (outcome: UpsertOutcome, orderId: string, version: number) => void;
}

export async function runPoller(options: PollerOptions): Promise<void> {
  const { client, store, signal } = options;
  const limit = options.pageSize ?? 200;
  const intervalMs = options.intervalMs ?? 5000;
  let cursor = store.cursor();
  while (!signal?.aborted) {
    let page: OrderPage;
    try {
      page = await client.orders.list({ limit, ...(cursor ? { cursor } : {}) }, signal ? { signal } : {});
    } catch (err) {
      if (signal?.aborted) return;
      throw err;
    }
    // next_cursor is on every page, the last and empty ones included.
    const next = page.next_cursor || cursor;
    const outcomes = store.applyPage(page.data, next);
    page.data.forEach((order, i) => {
      options.onChange?.(outcomes[i] ?? "skipped", order.id, order.version);
    });
    const advanced = next !== cursor;
    cursor = next;
    if (!page.has_more || !advanced) {
      try {
        await sleep(intervalMs, undefined, signal ? { signal } : {});
      } catch (err) {
        if (signal?.aborted) return;
        throw err;
      }
    }
  }
}
