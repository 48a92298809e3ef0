// Records several successful attempts in one transaction: the common case of a healthy receiver,
// which record() handled one attempt per transaction of four statements (the subscription's lock,
// the attempt's lock, its update, the streak's reset). Here: the subscriptions' locks in key
// order (the lock order of index.ts; sorted, so two batches never wait on each other in a
// cycle), then one statement that marks every attempt still leased by this dispatcher succeeded
// and resets the failure streak of subscriptions that had one. A failed attempt still goes
// through record(): it schedules a retry, may pause or disable the subscription.
import { type AttemptResult, recordedStatus } from "@oisr/contract";
import { type SQL, sql } from "drizzle-orm";
import type { Database } from "../../db/client.ts";

export interface Succeeded {
  claimed: { accountId: string; id: string; subscriptionId: string };
  result: AttemptResult & { ok: true };
  at: Date;
}

/**
 * The statement that marks the attempts in `rows` (JSON, as recordSucceeded makes it) succeeded.
 * PostgreSQL estimates the JSON list at 100 rows whatever its length, so the plan may hash the batch
 * against the attempts leased now (the partial index of leased attempts) instead of probing each by
 * its key: that reads at most the attempts claimed and not yet recorded, never the pending backlog
 * nor the delivered history, with statistics or without (succeeded.test.ts).
 */
export const recordStatement = (workerId: string, rows: string): SQL =>
  sql`with done as (
            select r.a as account_id, r.i as id, r.at as attempted_at, r.st as response_status,
                   r.ct as content_type, r.b as body, r.ms as duration_ms
              from jsonb_to_recordset(${rows}::jsonb) as r(a text, i text, at timestamptz, st int, ct text, b text, ms int)
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
          select id from recorded`;

/** Ids of the attempts recorded; an attempt missing from it lost its lease (another dispatcher makes it). */
export async function recordSucceeded(
  database: Database,
  workerId: string,
  done: readonly Succeeded[],
): Promise<Set<string>> {
  if (done.length === 0) return new Set();
  // One JSON parameter each, whatever the batch's size: one statement text, one prepared plan.
  const keys = JSON.stringify(
    [...new Map(done.map((d) => [`${d.claimed.accountId}\u0000${d.claimed.subscriptionId}`, d.claimed]))].map(
      ([, c]) => ({ a: c.accountId, i: c.subscriptionId }),
    ),
  );
  const rows = JSON.stringify(
    done.map(({ claimed, result, at }) => ({
      a: claimed.accountId,
      i: claimed.id,
      at: at.toISOString(),
      st: recordedStatus(result.status),
      ct: result.response?.contentType ?? null,
      b: result.response?.body ?? null,
      ms: Math.max(0, Math.round(result.durationMs)),
    })),
  );
  return database.db.transaction(async (tx) => {
    await database.rows(
      sql`select 1 from webhook_subscriptions
           where (account_id, id) in (select k.a, k.i from jsonb_to_recordset(${keys}::jsonb) as k(a text, i text))
           order by account_id, id for update`,
      tx,
    );
    const recorded = await database.rows<{ id: string }>(recordStatement(workerId, rows), tx);
    return new Set(recorded.map((r) => r.id));
  });
}
