// Records several successful attempts in one transaction: the common case of a healthy receiver,
// which record() handled one attempt per transaction of four statements (the subscription's lock,
// the attempt's lock, its update, the streak's reset). Here: the subscriptions' locks in key
// order (the lock order of index.ts; sorted, so two batches never wait on each other in a
// cycle), then one statement that marks every attempt still leased by this dispatcher succeeded
// and resets the failure streak of subscriptions that had one. A failed attempt still goes
// through record(): it schedules a retry, may pause or disable the subscription.
import { type AttemptResult, recordedStatus } from "@oisr/contract";
import { sql } from "drizzle-orm";
import type { Database } from "../../db/client.ts";

export interface Succeeded {
  claimed: { accountId: string; id: string; subscriptionId: string };
  result: AttemptResult & { ok: true };
  at: Date;
}

/** Ids of the attempts recorded; an attempt missing from it lost its lease (another dispatcher makes it). */
export async function recordSucceeded(
  database: Database,
  workerId: string,
  done: readonly Succeeded[],
): Promise<Set<string>> {
  if (done.length === 0) return new Set();
  const keys = [
    ...new Map(done.map((d) => [`${d.claimed.accountId}\u0000${d.claimed.subscriptionId}`, d.claimed])),
  ]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([, c]) => sql`(${c.accountId}, ${c.subscriptionId})`);
  const values = done.map(
    ({ claimed, result, at }) =>
      sql`(${claimed.accountId}::text, ${claimed.id}::text, ${at.toISOString()}::timestamptz,
           ${recordedStatus(result.status)}::int, ${result.response?.contentType ?? null}::text,
           ${result.response?.body ?? null}::text, ${Math.max(0, Math.round(result.durationMs))}::int)`,
  );
  return database.db.transaction(async (tx) => {
    await database.rows(
      sql`select 1 from webhook_subscriptions where (account_id, id) in (${sql.join(keys, sql`, `)})
           order by account_id, id for update`,
      tx,
    );
    const rows = await database.rows<{ id: string }>(
      sql`with done (account_id, id, attempted_at, response_status, content_type, body, duration_ms) as (
            values ${sql.join(values, sql`, `)}
          ), recorded as (
            update webhook_deliveries d
               set status = 'succeeded', error = null, next_attempt_at = null, lease_owner = null, lease_until = null,
                   attempted_at = done.attempted_at, response_status = done.response_status,
                   response_content_type = done.content_type, response_body = done.body,
                   retry_after_seconds = null, duration_ms = done.duration_ms
              from done
             where d.account_id = done.account_id and d.id = done.id and d.created_at = oisr_ulid_time(done.id)
               and d.status = 'pending' and d.lease_owner = ${workerId}
            returning d.account_id, d.subscription_id, d.id
          ), streaks as (
            update webhook_subscriptions s set consecutive_failures = 0, failing_since = null
              from (select distinct account_id, subscription_id from recorded) r
             where s.account_id = r.account_id and s.id = r.subscription_id
               and (s.consecutive_failures <> 0 or s.failing_since is not null)
          )
          select id from recorded`,
      tx,
    );
    return new Set(rows.map((r) => r.id));
  });
}
