// The dispatcher's record of successful attempts (succeeded.ts): only this dispatcher's leased
// attempts are marked, a failing streak is reset, and marking an attempt reads at most the attempts
// leased now, however many are pending or delivered, with statistics or without. PGlite, or
// PostgreSQL when DATABASE_URL is set.
import { sql, TransactionRollbackError } from "drizzle-orm";
import { beforeAll, expect, it } from "vitest";
import type { Database, Tx } from "../../db/client.ts";
import { useFreshDatabase } from "../test-support.ts";
import { recordStatement, recordSucceeded, type Succeeded } from "./succeeded.ts";

let database: Database;
useFreshDatabase((opened) => {
  database = opened;
});

const ACCOUNT = "acc_succeeded";
const WORKER = "dispatcher-1";
const ok = { ok: true as const, status: 200, durationMs: 12 };
const done = (id: string, subscriptionId = "whs_1"): Succeeded => ({
  claimed: { accountId: ACCOUNT, id, subscriptionId },
  result: ok,
  at: new Date(),
});

/**
 * Attempts made now, `n` of them: every tenth pending, and of those every two-hundredth leased by
 * WORKER (a claim's worth: the dispatcher leases a few per subscription at a time); the leased ids.
 */
async function attempts(n: number): Promise<{ leased: string[] }> {
  const rows = await database.rows<{ id: string; lease_owner: string | null }>(
    sql`insert into webhook_deliveries (account_id, id, subscription_id, event_id, event_type, attempt, status,
                                        next_attempt_at, lease_owner, lease_until, created_at)
        select ${ACCOUNT}, x.id, 'whs_' || (g % 7 + 1), 'evt_' || g, 'return.created', 1,
               case when g % 10 = 0 then 'pending' else 'succeeded' end, now(),
               case when g % 2000 = 0 then ${WORKER} end, case when g % 2000 = 0 then now() + interval '1 minute' end,
               oisr_ulid_time(x.id)
          from generate_series(1, ${n}) g, lateral (select 'whd_' || oisr_ulid(now() - g * interval '1 millisecond') as id) x
        returning id, lease_owner`,
  );
  return { leased: rows.filter((r) => r.lease_owner === WORKER).map((r) => r.id) };
}

let leased: string[] = [];
beforeAll(async () => {
  await database.rows(
    sql`insert into webhook_subscriptions (account_id, id, url, events, secret, consecutive_failures, failing_since)
        select ${ACCOUNT}, 'whs_' || g, 'https://example.com/hook', '{return.created}', 'whsec_x', 3, now()
          from generate_series(1, 7) g`,
  );
  ({ leased } = await attempts(20_000));
});

it("marks this dispatcher's leased attempts succeeded, skips one whose lease it lost, and resets the streak", async () => {
  const [mine, lost] = leased as [string, string];
  await database.rows(sql`update webhook_deliveries set lease_owner = 'dispatcher-2' where id = ${lost}`);
  const sub = async (id: string) =>
    (
      await database.rows<{ subscription_id: string }>(
        sql`select subscription_id from webhook_deliveries where id = ${id}`,
      )
    )[0]?.subscription_id as string;

  const recorded = await recordSucceeded(database, WORKER, [
    done(mine, await sub(mine)),
    done(lost, await sub(lost)),
  ]);
  expect([...recorded]).toEqual([mine]);
  const rows = await database.rows<{
    id: string;
    status: string;
    response_status: number;
    lease_owner: string | null;
  }>(
    sql`select id, status, response_status, lease_owner from webhook_deliveries where id in (${mine}, ${lost}) order by id`,
  );
  expect(rows.find((r) => r.id === mine)).toMatchObject({
    status: "succeeded",
    response_status: 200,
    lease_owner: null,
  });
  expect(rows.find((r) => r.id === lost)).toMatchObject({ status: "pending", lease_owner: "dispatcher-2" });
  const [streak] = await database.rows<{ consecutive_failures: number; failing_since: string | null }>(
    sql`select consecutive_failures, failing_since from webhook_subscriptions where account_id = ${ACCOUNT} and id = ${await sub(mine)}`,
  );
  expect(streak).toMatchObject({ consecutive_failures: 0, failing_since: null });
});

it.each([
  ["never analysed", false],
  ["analysed", true],
])(
  "reads at most the attempts leased now, not every pending one (20,000 attempts, 2,000 pending), the table %s",
  async (_, analysed) => {
    if (analysed) await database.rows(sql`analyze webhook_deliveries`);
    const id = leased.at(-1) as string;
    const rows = JSON.stringify([
      { a: ACCOUNT, i: id, at: new Date().toISOString(), st: 204, ct: null, b: null, ms: 3 },
    ]);
    // Rows of webhook_deliveries' partitions read by the statement (sequential scans' rows, index
    // scans' heap fetches): this backend's counters before and after it, in a transaction then rolled
    // back. (The counters may also hold earlier transactions' counts not yet sent: hence the difference.)
    const readSoFar = async (tx: Tx) => {
      const [counts] = await database.rows<{ n: string }>(
        sql`select coalesce(sum(coalesce(seq_tup_read, 0) + coalesce(idx_tup_fetch, 0)), 0) as n
            from pg_stat_xact_user_tables where relname like 'webhook_deliveries%'`,
        tx,
      );
      return Number(counts?.n);
    };
    let read = Number.NaN;
    await database.db
      .transaction(async (tx) => {
        const before = await readSoFar(tx);
        const marked = await database.rows<{ id: string }>(recordStatement(WORKER, rows), tx);
        expect(marked.map((r) => r.id)).toEqual([id]);
        read = (await readSoFar(tx)) - before;
        tx.rollback();
      })
      .catch((err: unknown) => {
        if (!(err instanceof TransactionRollbackError)) throw err;
      });
    // The leased attempts (a claim's worth: the partial index of leased attempts), or the one attempt
    // by its key; never the pending backlog (2,000 here) nor the delivered history (18,000).
    expect(read).toBeLessThanOrEqual(leased.length);
  },
);
