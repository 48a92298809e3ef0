// SQL fragments the queue's statements share.
import { type SQL, sql } from "drizzle-orm";
import { OPEN_STATUSES } from "./statuses.ts";

/** `status in ('pending', 'processing')`, spelled from the one constant (matches requests_open_idx). */
export const isOpen: SQL = sql.raw(`status in (${OPEN_STATUSES.map((s) => `'${s}'`).join(", ")})`);

/**
 * A request's body as json: `body` (migration 0022), or `legacy_body` for a request accepted before
 * it (decision 028). Every statement that reads a body back reads it through this, so dropping the
 * legacy column later changes one place.
 */
export const storedBody: SQL = sql.raw("coalesce(body, legacy_body::json)");

/** An interval of `ms` milliseconds. */
export const millis = (ms: number): SQL => sql`make_interval(secs => ${ms / 1000})`;

/**
 * The head and the processing count of the account of `request_queues q`, as two lateral joins
 * (`h`: the first open request's id, status and accepted_at; `p.n`: how many are processing).
 * Processing requests are always a prefix of an account's open requests in `seq` order
 * (transitions.ts starts the head and the fresh requests right behind it; a later stage starts
 * after the one before it), so they are counted up to the account's first pending request: an
 * account whose head is pending costs one probe, and the rows read grow with the requests being
 * processed or waiting for a retry, never with the pending backlog.
 */
export const queueHeadJoins: SQL = sql`
  left join lateral (select r.id, r.accepted_at, r.status from requests r
                      where r.account_id = q.account_id and ${isOpen}
                      order by r.seq limit 1) h on true
  left join lateral (select count(*) as n from requests r
                      where h.status = 'processing' and r.account_id = q.account_id and ${isOpen}
                        and r.seq < coalesce(
                          (select f.seq from requests f
                            where f.account_id = q.account_id and f.status = 'pending' and ${isOpen}
                            order by f.seq limit 1),
                          9223372036854775807)) p on true`;
