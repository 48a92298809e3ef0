// Retention of the `events` outbox (decision 004; webhooks/sql/retention.ts prunes attempts and
// recoveries the same way): small batches, each its own statement, so a large backlog never holds
// locks for long, and rows another dispatcher is pruning are skipped (SKIP LOCKED), not waited for.
import { retentionCutoff, TEST_EVENT_TYPE } from "@oisr/contract";
import { sql } from "drizzle-orm";
import { encodeTime } from "ulidx";
import type { Database } from "../db/client.ts";

/** How retention passes (this one and webhooks/sql/retention.ts) delete. */
export interface PruneOptions {
  /** Rows deleted per statement. */
  batchSize?: number;
  now?: Date;
  /** Checked between batches: a dispatcher that is stopping does not finish a long prune. */
  shouldStop?: () => boolean;
}

export const DEFAULT_BATCH = 5000;

/**
 * Deletes outbox events that are finished and older than the retention period; returns how many.
 *
 * An event is finished when it was fanned out and none of its attempts can still be made: every
 * attempt succeeded, failed with no retry left, or is a `pending` one that will never be sent
 * (its subscription was disabled or deleted; test events are sent whatever the status, so a
 * pending test attempt keeps its event). An event also stays while any of its attempts is within
 * the retention period, so `GET …/deliveries` keeps its full 30 days and never lists an attempt
 * whose event is gone. The remaining attempts of a deleted event (older than the period, or
 * never to be sent) are deleted with it, in the same statement: no attempt outlives its event.
 *
 * GET /events (feed.ts) hides events past the period by itself, so an event kept here for
 * a pending attempt is never listed late; this job only reclaims the space.
 *
 * Walks account by account along the primary key: event ids are ULIDs, so `id < evt_<cutoff
 * time>` bounds the scan to old events by index; `created_at` remains the rule.
 */
export async function pruneEvents(
  database: Database,
  retentionDays: number,
  options: PruneOptions = {},
): Promise<number> {
  const batch = options.batchSize ?? DEFAULT_BATCH;
  const cutoffMs = retentionCutoff(options.now ?? new Date(), retentionDays).getTime();
  if (cutoffMs <= 0) return 0;
  const cutoff = new Date(cutoffMs).toISOString();
  const idBound = `evt_${encodeTime(cutoffMs, 10)}`;
  // Distinct accounts by skipping along the primary key (a loose index scan), not a full scan.
  const accounts = await database.rows<{ account_id: string }>(
    sql`with recursive a as (
          select min(account_id) as account_id from events
          union all
          select (select min(account_id) from events where account_id > a.account_id) from a
           where a.account_id is not null)
        select account_id from a where account_id is not null`,
  );
  let total = 0;
  for (const { account_id: accountId } of accounts) {
    for (;;) {
      if (options.shouldStop?.()) return total;
      const rows = await database.rows<{ id: string }>(
        sql`with doomed as (
              select e.account_id, e.id from events e
               where e.account_id = ${accountId} and e.id < ${idBound}
                 and e.created_at < ${cutoff} and e.dispatched_at is not null
                 and not exists (
                   select 1 from webhook_deliveries d
                     left join webhook_subscriptions s on s.account_id = d.account_id and s.id = d.subscription_id
                    where d.account_id = e.account_id and d.event_id = e.id
                      and (d.created_at >= ${cutoff}
                           or (d.status = 'pending' and s.id is not null
                               and (s.status = 'enabled' or d.event_type = ${TEST_EVENT_TYPE}))))
               order by e.id
               limit ${batch}
               for update of e skip locked
            ), attempts as (
              delete from webhook_deliveries d using doomed
               where d.account_id = doomed.account_id and d.event_id = doomed.id
            )
            delete from events e using doomed
             where e.account_id = doomed.account_id and e.id = doomed.id
            returning e.id`,
      );
      total += rows.length;
      if (rows.length < batch) break;
    }
  }
  return total;
}
