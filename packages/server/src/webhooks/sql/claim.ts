// The dispatcher's claim: which attempts go out next, at most `perSubscription` in flight per
// subscription across every dispatcher, one subscription's backlog never crowding out the others.
//
// Its cost does not grow with the backlog or the history (decision 019, "claim cost"). It starts
// from the subscriptions (a few hundred rows) and, per subscription, probes two partial indexes of
// migration 0016: the oldest due unleased attempt (webhook_deliveries_pending_idx, ordered by
// next_attempt_at: one descent per partition) and the leased ones (webhook_deliveries_leased_idx:
// at most perSubscription rows, plus leases of dead dispatchers until they are claimed again).
// The claim it replaced grouped every due attempt to find the subscriptions with work (80 ms at
// 4,700 pending) and counted leases through the subscription's whole history (0.8 ms each).
// Both tables are partitioned by time (decision 020), and a probe of a partitioned index descends
// every partition's index: 50 subscriptions x 52 minute partitions x 2 = 5,200 descents a claim in
// the soak, linear in the retention. So every statement first takes `pending_floor`, the oldest
// pending attempt's created_at (the partition key), from migration 0019's partial index: the
// partitions are range-ordered, so that is the first entry of the oldest partition that has one.
// Every probe then bounds created_at below by it, and run-time pruning skips each partition wholly
// before it: the probes read the partitions that hold pending attempts (1-2 while the dispatcher
// keeps up). The bound is exact, not a cache: it is read in the statement's own snapshot, so every
// pending row a probe can see is at or after it, whichever writer made it (decision 024, session 15).
//
// Every statement is one text whatever the number of subscriptions (lists travel as one JSON
// parameter), so its prepared plan is reused: planning a statement over the partitioned table
// took 150-300 ms in EXPLAIN on a loaded machine (36 partitions x 7 indexes), more than running it.
//
// Two statements in one transaction, so the per-subscription bound holds with several
// dispatchers: the first picks subscriptions with due work and free slots and takes a
// transaction advisory lock per subscription with a try (another dispatcher claiming for it right
// now is skipped, never waited on); the second, under those locks and with a snapshot taken after
// them, counts the leases again (it sees every lease an earlier claimer committed before letting
// its lock go) and leases the attempts, SKIP LOCKED. In one statement, two dispatchers each saw
// the other's leases missing and could both fill the same subscription's slots.
import { TEST_EVENT_TYPE } from "@oisr/contract";
import { type SQL, sql } from "drizzle-orm";
import type { Database } from "../../db/client.ts";
import { servedEventBody } from "../../outbox/index.ts";

export interface ClaimedRow {
  account_id: string;
  id: string;
  subscription_id: string;
  event_id: string;
  event_type: string;
  attempt: number;
  url: string;
  secret: string;
  previous_secret: string | null;
  previous_live: boolean | null;
  payload: unknown;
  traceparent: string | null;
}

/** The error of an attempt ended because its event is gone (retention dropped its partition). */
export const EVENT_GONE_ERROR = "event_expired: the event is past the retention period and was deleted";

/**
 * A number written into the statement, not a parameter: a generic plan of `LIMIT $n` is costed
 * for 10 % of the rows, and with a 50,000-row partition that made PostgreSQL re-plan every
 * execution (custom plans, 150-300 ms each here). With the limits as literals the statements have
 * no parameter that changes their plan, so each connection plans each text once.
 */
const literal = (n: number) => sql.raw(String(Math.max(0, Math.trunc(n))));
const TEST_TYPE = sql.raw(`'${TEST_EVENT_TYPE.replaceAll("'", "''")}'`);

/**
 * The statement's first CTE: the oldest pending attempt's created_at (null when none is pending).
 * MATERIALIZED, so it is read once per statement and reaches the probes as a parameter known at
 * run time, which is what lets the executor prune partitions by it.
 */
const FLOOR = sql.raw(`pending_floor as materialized (
    select min(f.created_at) as since from webhook_deliveries f where f.status = 'pending')`);
const atOrAfterFloor = (alias: string) => sql.raw(`${alias}.created_at >= (select since from pending_floor)`);

/** Leases held on the subscription `s` right now: a walk over webhook_deliveries_leased_idx. */
const leased = (s: SQL) => sql`(select count(*) from webhook_deliveries l
   where l.account_id = ${s}.account_id and l.subscription_id = ${s}.id and ${atOrAfterFloor("l")}
     and l.status = 'pending' and l.lease_owner is not null and l.lease_until >= now())`;

/** Attempts of the subscription `s` that may go out now: due, unleased, and only tests while it is disabled. */
const claimable = (s: SQL) => sql`d.account_id = ${s}.account_id and d.subscription_id = ${s}.id
   and ${atOrAfterFloor("d")} and d.status = 'pending' and d.next_attempt_at <= now()
   and (d.lease_until is null or d.lease_until < now())
   and (${s}.status = 'enabled' or d.event_type = ${TEST_TYPE})`;

/** Same key shape as the rate limits' locks (account, thing); a collision only makes a claim skip a turn. */
const claimLock = (s: SQL) =>
  sql`pg_try_advisory_xact_lock(hashtext(${s}.account_id), hashtext('oisr_webhook_claim:' || ${s}.id))`;

export async function claimDue(
  database: Database,
  workerId: string,
  limit: number,
  perSubscription: number,
  leaseMs: number,
): Promise<ClaimedRow[]> {
  return database.db.transaction(async (tx) => {
    const s = sql.raw("s");
    // The lease statement's one parameter (the picked subscriptions) made PostgreSQL plan it afresh
    // on every call: it keeps custom plans while a generic one is costed higher, and over a
    // partitioned table it is (every partition in the plan; run-time pruning drops them at once
    // either way, as the bound is read by the statement itself). In the soak that was 7.8 ms of
    // planning per claim at 45 partitions, 4.5 times its execution (issue 26). Sent with the next
    // statement, so it costs no round trip.
    // Subscriptions with due work and a free slot, oldest due first; the lock is tried only on the
    // ones the limit kept (a volatile function is not pushed below the subquery's LIMIT).
    const [, picked] = await Promise.all([
      database.rows(sql`set local plan_cache_mode = force_generic_plan`, tx),
      database.rows<{ account_id: string; id: string }>(
        sql`with ${FLOOR}
          select account_id, id from (
            select s.account_id, s.id, due.oldest
              from webhook_subscriptions s
              cross join lateral (
                select d.next_attempt_at as oldest from webhook_deliveries d
                 where ${claimable(s)}
                 order by d.next_attempt_at limit 1) due
             -- The receiver asked for a pause (Retry-After); attempts in flight when it did still finish.
             where (s.paused_until is null or s.paused_until <= now())
               and ${leased(s)} < ${literal(perSubscription)}
             order by due.oldest
             limit ${literal(limit)}) open
          where ${claimLock(sql.raw("open"))}`,
        tx,
      ),
    ]);
    if (picked.length === 0) return [];
    return database.rows<ClaimedRow>(
      sql`with ${FLOOR}, open as (
            select s.account_id, s.id, s.status, ${literal(perSubscription)} - ${leased(s)} as free
              from webhook_subscriptions s
             -- One parameter, whatever the count: one statement text, so its prepared plan is reused.
             where (s.account_id, s.id) in (select k.a, k.i from jsonb_to_recordset(${JSON.stringify(
               picked.map((p) => ({ a: p.account_id, i: p.id })),
             )}::jsonb) as k(a text, i text))
               and (s.paused_until is null or s.paused_until <= now())
          ), candidates as (
            select c.account_id, c.id, c.created_at, c.event_id, c.subscription_id, c.next_attempt_at,
                   row_number() over (partition by c.account_id, c.subscription_id order by c.next_attempt_at) as rn, s.free
              from open s
              cross join lateral (
                select d.account_id, d.id, d.created_at, d.event_id, d.subscription_id, d.next_attempt_at
                  from webhook_deliveries d
                 where ${claimable(s)}
                 order by d.next_attempt_at
                 limit ${literal(perSubscription)}
                 for update of d skip locked
              ) c
          ), picked as (
            select account_id, id, created_at, event_id, subscription_id,
                   exists (select 1 from events e
                            where e.account_id = candidates.account_id and e.id = candidates.event_id
                              and e.created_at = oisr_ulid_time(candidates.event_id)) as has_event
              from candidates where rn <= free order by next_attempt_at limit ${literal(limit)}
          ), gone as (
            -- The event's partition was dropped (retention, decision 020) while this attempt waited:
            -- nothing is left to send, so the attempt ends failed instead of being claimed forever.
            update webhook_deliveries d
               set status = 'failed', next_attempt_at = null, attempted_at = now(), error = ${EVENT_GONE_ERROR}
              from picked p
             where not p.has_event and d.account_id = p.account_id and d.id = p.id and d.created_at = p.created_at
          ), sending as (
            -- What each attempt sends, joined to the picked keys before the update meets the attempts:
            -- joined in the update, the planner (16 picked rows estimated as 1) paired every
            -- subscription with every picked row and walked each pair's whole history in every
            -- partition (434,000 buffers, 0.5-1.1 s at 57 minute partitions; 1,100 buffers now).
            select p.account_id, p.id, p.created_at, s.url, s.secret, s.previous_secret,
                   s.previous_secret_expires_at > now() as previous_live,
                   ${servedEventBody(sql.raw("e.payload"))} as payload, e.traceparent
              from picked p
              join webhook_subscriptions s on s.account_id = p.account_id and s.id = p.subscription_id
              join events e on e.account_id = p.account_id and e.id = p.event_id
                           and e.created_at = oisr_ulid_time(p.event_id)
             where p.has_event
          )
          update webhook_deliveries d
             set lease_owner = ${workerId}, lease_until = now() + make_interval(secs => ${leaseMs / 1000})
            from sending p
           where d.account_id = p.account_id and d.id = p.id and d.created_at = p.created_at
          returning d.account_id, d.id, d.subscription_id, d.event_id, d.event_type, d.attempt, p.url, p.secret,
                    p.previous_secret, p.previous_live, p.payload, p.traceparent`,
      tx,
    );
  });
}

/**
 * Milliseconds until an attempt may need a claim, from the same per-subscription probes: the oldest
 * unleased attempt, or the earliest lease running out, not before the subscription's pause ends.
 * Null when no attempt is pending. (The query it replaced took the minimum over every pending row.)
 */
export async function attemptsDueInMs(database: Database): Promise<number | null> {
  const s = sql.raw("s");
  const [row] = await database.rows<{ ms: number | string | null }>(
    sql`with ${FLOOR}
        select extract(epoch from min(greatest(least(u.next, l.next), s.paused_until)) - now()) * 1000 as ms
          from webhook_subscriptions s
          left join lateral (
            select d.next_attempt_at as next from webhook_deliveries d
             where d.account_id = s.account_id and d.subscription_id = s.id and d.status = 'pending'
               and ${atOrAfterFloor("d")}
               and (d.lease_until is null or d.lease_until < now())
             order by d.next_attempt_at limit 1) u on true
          left join lateral (
            select min(l.lease_until) as next from webhook_deliveries l
             where l.account_id = ${s}.account_id and l.subscription_id = ${s}.id and ${atOrAfterFloor("l")}
               and l.status = 'pending' and l.lease_owner is not null) l on true
         where u.next is not null or l.next is not null`,
  );
  return row?.ms == null ? null : Math.max(0, Number(row.ms));
}
