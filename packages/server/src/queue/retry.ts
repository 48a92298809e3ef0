// Sending failed and dead requests again (POST /requests/{id}/retry and POST /requests/retry,
// docs/decisions/014). A retry is an ingest call whose body is read from the original: it goes
// through the same accept path (accept.ts: idempotency, group commit, producer span), then one
// statement links the two records. Which statuses may be retried, and the bulk bounds, are
// @oisr/contract's (request-retry.ts).
//
//   original (failed | dead) --retry--> new request (pending → …)
//     original.retried_by = newest retry        new.retry_of = original
//
// The link is written right after the accepting commit, not in it: accept.ts owns that
// transaction. A process dying between the two leaves a retry without its links (it is still
// processed, and listed by GET /requests); nothing else is lost.
//
// The bulk form claims its originals before sending them (retried_by set to the original's own id,
// read as "being retried": records.ts shows it as null), in one statement that skips rows another
// bulk call is claiming, so two bulk calls at once never send the same request twice.
import {
  BULK_RETRY_ENDPOINT,
  type BulkRetrySelection,
  idempotencyDecision,
  RETRY_FINGERPRINT,
  type RetryRequestsResult,
  retryEndpoint,
  retryRequestsResult,
} from "@oisr/contract";
import { type SQL, sql } from "drizzle-orm";
import type { Database } from "../db/client.ts";
import { newRequestId } from "../store/ids.ts";
import type { AcceptOutcome, NewRequest } from "./accept.ts";
import { IDEMPOTENCY_WINDOW } from "./maintenance.ts";
import { storedBody } from "./sql.ts";
import type { RequestKind, RequestStatus } from "./statuses.ts";

/** What a retry needs to know of the original before it is charged and answered. */
export interface RetryTarget {
  kind: RequestKind;
  status: RequestStatus;
  acceptedAt: string;
}

/** Who asks for a retry: the call's account, key, idempotency key and trace. */
export interface RetryCaller {
  accountId: string;
  idempotencyKey: string | null;
  apiKeyId: string | null;
  traceId: string;
}

type Accept = (item: NewRequest) => Promise<AcceptOutcome>;
/** What accepting a retry answers: its access was decided by the route, so never "refused". */
type RetryAccepted = Exclude<AcceptOutcome, { kind: "refused" }>;

/** The bulk call's answer, or the 422 of its key used with another body. */
export type BulkOutcome =
  | { kind: "accepted" | "replayed"; result: RetryRequestsResult }
  | { kind: "key_reused" };

/**
 * Originals sent again at once by a bulk call: one. The new requests must be accepted in the
 * originals' order, because an account's requests apply in acceptance order: a failed order and
 * the failed return for it, retried together, must apply order first. With 4 concurrent sends the
 * retries were accepted in any order (the contract suite caught it through PgBouncer). One body
 * (≤ 5 MiB) in memory at a time.
 */
const BULK_CONCURRENCY = 1;

/**
 * The bulk selection's rows: the account's requests of the status, not retried, accepted in the
 * window (requests_retryable_idx holds exactly the failed and dead ones not yet retried).
 */
function selected(accountId: string, selection: BulkRetrySelection): SQL {
  const kind = selection.kind ?? null;
  return sql`account_id = ${accountId} and status = ${selection.status} and retried_by is null
    and accepted_at >= ${new Date(selection.sinceMs).toISOString()}
    and accepted_at < ${new Date(selection.untilMs).toISOString()}
    and (${kind}::text is null or kind = ${kind})`;
}

export function createRetries(database: Database, accept: Accept) {
  /** Reads the original's body and accepts it again as a new request of the same kind and path. */
  async function resend(caller: RetryCaller, id: string, endpoint: string): Promise<RetryAccepted> {
    const [original] = await database.rows<{
      kind: RequestKind;
      params: Record<string, string> | null;
      body: string;
      item_count: number;
    }>(
      sql`select kind, params, ${storedBody}::text as body, item_count from requests
           where account_id = ${caller.accountId} and id = ${id}`,
    );
    // Final requests are deleted only by the retention purge, which the caller checked against.
    if (!original) throw new Error(`request ${id} vanished before its retry`);
    const outcome = await accept({
      accountId: caller.accountId,
      kind: original.kind,
      endpoint,
      params: original.params,
      bodyJson: original.body,
      bodyHash: RETRY_FINGERPRINT,
      itemCount: original.item_count,
      idempotencyKey: endpoint === BULK_RETRY_ENDPOINT ? null : caller.idempotencyKey,
      apiKeyId: caller.apiKeyId,
      traceId: caller.traceId,
    });
    // The item carries no deferred access (the route authorised and charged the call), and only a
    // call with one can be refused by the storing statement (accept.ts).
    if (outcome.kind === "refused") throw new Error(`the accept statement refused retry ${id}`);
    return outcome;
  }

  /** One statement: the new record names its original, the original its newest retry. */
  async function link(accountId: string, originalId: string, retryId: string): Promise<void> {
    await database.rows(
      sql`with retry as (
            update requests set retry_of = ${originalId} where account_id = ${accountId} and id = ${retryId})
          update requests set retried_by = ${retryId} where account_id = ${accountId} and id = ${originalId}`,
    );
  }

  return {
    /** The original's kind and status (its body left unread), or undefined for no such request. */
    async retryTarget(accountId: string, id: string): Promise<RetryTarget | undefined> {
      const [row] = await database.rows<{ kind: RequestKind; status: RequestStatus; accepted_at: string }>(
        sql`select kind, status, accepted_at from requests where account_id = ${accountId} and id = ${id}`,
      );
      return row && { kind: row.kind, status: row.status, acceptedAt: row.accepted_at };
    },

    /**
     * Sends request `id` (checked retryable by the caller) again. Replays answer the first retry
     * made with the caller's key and link nothing: that retry was linked when it was accepted.
     */
    async retry(caller: RetryCaller, id: string): Promise<RetryAccepted> {
      const outcome = await resend(caller, id, retryEndpoint(id));
      if (outcome.kind === "accepted") await link(caller.accountId, id, outcome.ack.request_id);
      return outcome;
    },

    /** A live answer of an earlier bulk call with this key, or the 422 of another body. */
    async bulkReplay(caller: RetryCaller, bodyHash: string): Promise<BulkOutcome | undefined> {
      if (caller.idempotencyKey === null) return undefined;
      const [row] = await database.rows<{ body_hash: string; response: RetryRequestsResult }>(
        sql`select body_hash, response from idempotency_keys
             where account_id = ${caller.accountId} and endpoint = ${BULK_RETRY_ENDPOINT}
               and key = ${caller.idempotencyKey} and created_at >= now() - ${IDEMPOTENCY_WINDOW}
             order by created_at desc limit 1`,
      );
      if (!row) return undefined;
      return idempotencyDecision({ bodyHash: row.body_hash }, bodyHash) === "replay"
        ? { kind: "replayed", result: row.response }
        : { kind: "key_reused" };
    },

    /**
     * The kinds of the requests a bulk call would send again, oldest first, at most `limit`
     * (requests_retryable_idx), and whether more match: what the call is charged for.
     */
    async bulkCandidates(
      accountId: string,
      selection: BulkRetrySelection,
    ): Promise<{ kinds: RequestKind[]; hasMore: boolean }> {
      const rows = await database.rows<{ kind: RequestKind }>(
        sql`select kind from requests
             where ${selected(accountId, selection)}
             order by seq
             limit ${selection.limit + 1}`,
      );
      return {
        kinds: rows.slice(0, selection.limit).map((r) => r.kind),
        hasMore: rows.length > selection.limit,
      };
    },

    /**
     * Claims up to `limit` originals of the selection (oldest first; rows another bulk call holds
     * are skipped), sends each again and links it, then records the answer under the caller's key.
     */
    async retryMany(
      caller: RetryCaller,
      selection: BulkRetrySelection,
      bodyHash: string,
    ): Promise<BulkOutcome> {
      const claimed = await database.rows<{ id: string; seq: string | number }>(
        // A CTE runs once: a subquery joined in the update may be scanned again by the plan, and a
        // second scan of a LIMIT … SKIP LOCKED picks other rows (more than `limit` were claimed).
        sql`with c as materialized (
              select id from requests
               where ${selected(caller.accountId, selection)}
               order by seq
               limit ${selection.limit}
               for update skip locked)
            update requests r set retried_by = r.id
              from c
             where r.account_id = ${caller.accountId} and r.id = c.id
             returning r.id, r.seq`,
      );
      // `update … returning` does not keep the subquery's order; seq is the acceptance order.
      const ordered = claimed.sort((a, b) => Number(a.seq) - Number(b.seq));
      const retries: { request_id: string; retry_of: string }[] = [];
      const done = new Map<string, string>();
      let next = 0;
      const failed: { error?: unknown; at?: true } = {};
      const worker = async () => {
        // A failure stops every worker: what was sent is linked, the rest is released below.
        while (next < ordered.length && !failed.at) {
          const id = (ordered[next++] as { id: string }).id;
          try {
            const outcome = await resend(caller, id, BULK_RETRY_ENDPOINT);
            // Without a key, accept never replays: every outcome here is a new request.
            if (outcome.kind !== "accepted") throw new Error(`bulk retry of ${id} was ${outcome.kind}`);
            await link(caller.accountId, id, outcome.ack.request_id);
            done.set(id, outcome.ack.request_id);
          } catch (error) {
            if (!failed.at) Object.assign(failed, { error, at: true });
          }
        }
      };
      await Promise.all(Array.from({ length: Math.min(BULK_CONCURRENCY, ordered.length) }, worker));
      if (failed.at) {
        // Released claims are selected again by the next bulk call.
        const left = ordered.map((o) => o.id).filter((id) => !done.has(id));
        await database
          .rows(
            sql`update requests set retried_by = null where account_id = ${caller.accountId}
                 and id = any(${`{${left.join(",")}}`}::uuid[]) and retried_by = id`,
          )
          .catch(() => {});
        throw failed.error;
      }
      for (const { id } of ordered) retries.push({ request_id: done.get(id) as string, retry_of: id });
      const hasMore = (
        await database.rows<{ more: boolean }>(
          sql`select exists(select 1 from requests where ${selected(caller.accountId, selection)}) as more`,
        )
      )[0]?.more;
      const result = retryRequestsResult(retries, hasMore === true);
      if (caller.idempotencyKey !== null) {
        // A concurrent call with the same key may have recorded its answer first; this one keeps its own.
        await database.rows(
          sql`insert into idempotency_keys (account_id, endpoint, key, body_hash, request_id, response)
              select ${caller.accountId}, ${BULK_RETRY_ENDPOINT}, ${caller.idempotencyKey}, ${bodyHash},
                     ${retries[0]?.request_id ?? newRequestId()}, ${JSON.stringify(result)}::jsonb
               where not exists (
                 select 1 from idempotency_keys
                  where account_id = ${caller.accountId} and endpoint = ${BULK_RETRY_ENDPOINT}
                    and key = ${caller.idempotencyKey} and created_at >= now() - ${IDEMPOTENCY_WINDOW})`,
        );
      }
      return { kind: "accepted", result };
    },
  };
}
