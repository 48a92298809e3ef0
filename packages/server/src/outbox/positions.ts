// Feed positions (GET /events, and the orders and returns feeds): taken from `accounts.feed_seq`
// in the transaction that writes the rows they number. Bumping the counter locks the account row,
// which orders the account's commits, so positions are handed out in commit order and a poller
// reading `feed_seq > cursor` never skips a row that commits later (lock order: index.ts).
// The events' global bigserial `seq` could not serve this: it is drawn at insert, so a transaction
// holding seq 10 may commit after one holding seq 11 has been read past.
import { eq, type SQL, sql } from "drizzle-orm";
import type { Database, Tx } from "../db/client.ts";
import { accounts } from "../db/schema.ts";

/**
 * Takes `count` consecutive positions of the account's feed; returns the one before the first.
 * Orders, returns and events share the one per-account sequence (each feed reads only its own
 * table, so the gaps the others leave are harmless): store/changes.ts takes them for all three.
 */
export async function takeFeedPositions(tx: Tx, accountId: string, count: number): Promise<number> {
  const [row] = await tx
    .update(accounts)
    .set({ feedSeq: sql`${accounts.feedSeq} + ${count}` })
    .where(eq(accounts.id, accountId))
    .returning({ feedSeq: accounts.feedSeq });
  if (!row) throw new Error(`account ${accountId} vanished`);
  return Number(row.feedSeq) - count;
}

/**
 * The position before the last `count` positions taken from the account's feed, read back from the
 * account row in the statement it is part of: a statement sent behind reserveRequestEvents in the
 * same transaction (pipelined, one round trip for both) numbers its rows with it
 * (store/changes.ts). The row is this transaction's, locked by the bump, so no other takes
 * positions in between.
 */
export const positionBefore = (accountId: string, count: number): SQL =>
  sql`(select a.feed_seq - ${count}::bigint from accounts a where a.id = ${accountId})`;

/** Feed positions taken for a stage's request events, and who wants them delivered. */
export interface RequestEventSlots {
  /** The position before the first event's. */
  after: number;
  /** Request event types an enabled subscription of the account lists. */
  subscribed: ReadonlySet<string>;
}

/**
 * Takes `count` positions, as takeFeedPositions does, for a stage's changes and request events
 * alike (write.ts insertRequestEvents): one statement on the account row per stage. The worker
 * (worker/apply.ts) calls it before its stage writes anything, and queue/transitions.ts before
 * anything else its transaction locks on the queue: see the lock order in index.ts.
 *
 * It also reads which request event types the account's enabled subscriptions list. Request events
 * are opt-in, and most accounts may never subscribe to them; an event nobody subscribes to is
 * written as already fanned out, so the dispatcher (fan-out-claim.ts) never reads it. Every event of
 * a busy queue would otherwise cost a fan-out pass for nothing. A subscription that commits while
 * this transaction runs misses the events of this stage, as it would have if it had committed a
 * moment later; `recover` re-sends them.
 */
export async function reserveRequestEvents(
  database: Database,
  tx: Tx,
  accountId: string,
  count: number,
): Promise<RequestEventSlots> {
  const [row] = await database.rows<{ feed_seq: string | number; subscribed: string[] }>(
    sql`update accounts set feed_seq = feed_seq + ${count} where id = ${accountId}
        returning feed_seq, array(
          select distinct t from webhook_subscriptions s, unnest(s.events) as t
           where s.account_id = ${accountId} and s.status = 'enabled' and t like 'request.%') as subscribed`,
    tx,
  );
  if (!row) throw new Error(`account ${accountId} vanished`);
  return { after: Number(row.feed_seq) - count, subscribed: new Set(row.subscribed) };
}
