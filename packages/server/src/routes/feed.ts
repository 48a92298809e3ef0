// The server's three feeds (GET /orders, /returns, /events) open the same way: the calling
// account's cursors, the call's filters, then one page of the account's rows after the cursor's
// position (readFeed, shared with the mock). Each route names only its filters and its read; the
// page's item type comes from that read, so `res.json` still checks it against the operation.
import { type FeedRows, type Filters, type Page, readFeed } from "@oisr/contract";
import type { Cursors } from "../http/cursor.ts";

export type FeedRead<T> = (
  accountId: string,
  filters: Filters,
  after: number,
  take: number,
) => FeedRows<T> | Promise<FeedRows<T>>;

/** One page of a feed for the account the call authenticated as (`res.locals.account`). */
export function feedPages(codec: Cursors) {
  return <T>(
    res: { locals: { account: { id: string } } },
    query: Record<string, unknown>,
    filters: Filters,
    read: FeedRead<T>,
  ): Promise<Page<T>> => {
    const accountId = res.locals.account.id;
    return readFeed(codec.forAccount(accountId), query, filters, (sent, after, take) =>
      read(accountId, sent, after, take),
    );
  };
}
