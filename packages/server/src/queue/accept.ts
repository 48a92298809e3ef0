// One transaction for a batch of accepted ingest calls: idempotency keys claimed, replayed or
// refused, then every new request row inserted and counted into its account's queue with a single
// statement that also wakes the workers (transitions.ts). A batch without idempotency keys is that
// one statement alone, atomic by itself.
import { type IngestAccepted, idempotencyDecision, ingestAccepted } from "@oisr/contract";
import { sql } from "drizzle-orm";
import type { Database, Executor } from "../db/client.ts";
import { newRequestId } from "../store/ids.ts";
import { startPublishSpan } from "../telemetry/queue-spans.ts";
import { IDEMPOTENCY_WINDOW } from "./maintenance.ts";
import type { RequestKind } from "./statuses.ts";
import { insertPending } from "./transitions.ts";

export type IngestAck = IngestAccepted;

export interface NewRequest {
  accountId: string;
  kind: RequestKind;
  /** "POST /ingest/…" as called: the idempotency scope. */
  endpoint: string;
  params: Record<string, string> | null;
  /** The body as received, serialised once: hashed for idempotency and stored as is. */
  bodyJson: string;
  bodyHash: string;
  itemCount: number;
  idempotencyKey: string | null;
  /** The API key of the call (res.locals.apiKey); null only where no key called (tests). */
  apiKeyId: string | null;
  traceId: string;
  /** The call's publish span (tracing on only), stored so the worker's spans can link to it. */
  traceparent?: string;
}

export type AcceptOutcome = { kind: "accepted" | "replayed"; ack: IngestAck } | { kind: "key_reused" };

// \u0001 joins the parts: none can contain it (all printable), and PostgreSQL text cannot hold \u0000.
const keyOf = (r: NewRequest) => `${r.accountId}\u0001${r.endpoint}\u0001${r.idempotencyKey}`;

/**
 * One accept call inside its PRODUCER span when tracing is on (telemetry/queue-spans.ts): the span
 * covers the wait for the batch and its transaction, and its context is stored with the request.
 */
export async function publish(
  item: NewRequest,
  accept: (item: NewRequest) => Promise<AcceptOutcome>,
): Promise<AcceptOutcome> {
  const span = startPublishSpan(item.kind, item.bodyJson.length);
  if (!span) return accept(item);
  try {
    const outcome = await accept({ ...item, traceparent: span.traceparent });
    span.end(
      outcome.kind === "key_reused"
        ? {}
        : { requestId: outcome.ack.request_id, replayed: outcome.kind === "replayed" },
    );
    return outcome;
  } catch (err) {
    span.fail(err);
    throw err;
  }
}

export async function acceptBatch(database: Database, items: NewRequest[]): Promise<AcceptOutcome[]> {
  const acks: IngestAck[] = items.map((r) => ingestAccepted(newRequestId(), r.traceId));
  const outcomes: (AcceptOutcome | undefined)[] = new Array(items.length);
  // The first call with a key leads; later calls with the same key in this batch follow its fate.
  const leaders = new Map<string, number>();
  const followers: [number, number][] = [];
  items.forEach((r, i) => {
    if (r.idempotencyKey === null) return;
    const leader = leaders.get(keyOf(r));
    if (leader === undefined) leaders.set(keyOf(r), i);
    else followers.push([i, leader]);
  });
  const leaderHash = new Map<number, string>();

  // Every statement has one fixed text whatever the batch size (rows travel as one JSON
  // parameter), so postgres.js prepares each once instead of once per batch size.
  const store = async (tx?: Executor) => {
    if (leaders.size > 0) {
      const keyed = [...leaders.values()];
      const keys = JSON.stringify(
        keyed.map((i) => {
          const r = items[i] as NewRequest;
          const ack = acks[i] as IngestAck;
          return {
            a: r.accountId,
            e: r.endpoint,
            k: r.idempotencyKey,
            h: r.bodyHash,
            r: ack.request_id,
            x: ack,
          };
        }),
      );
      const claimed = await database.rows<{ k: string }>(
        sql`insert into idempotency_keys (account_id, endpoint, key, body_hash, request_id, response)
            select x.a, x.e, x.k, x.h, x.r, x.x from jsonb_to_recordset(${keys}::jsonb)
              as x(a text, e text, k text, h text, r uuid, x jsonb)
            on conflict (account_id, endpoint, key) do update
              set body_hash = excluded.body_hash, request_id = excluded.request_id, response = excluded.response, created_at = now()
              where idempotency_keys.created_at < now() - ${IDEMPOTENCY_WINDOW}
            returning account_id || chr(1) || endpoint || chr(1) || key as k`,
        tx,
      );
      const claimedKeys = new Set(claimed.map((c) => c.k));
      const taken = keyed.filter((i) => !claimedKeys.has(keyOf(items[i] as NewRequest)));
      for (const i of keyed) leaderHash.set(i, (items[i] as NewRequest).bodyHash);
      if (taken.length > 0) {
        const wanted = JSON.stringify(
          taken.map((i) => {
            const r = items[i] as NewRequest;
            return { a: r.accountId, e: r.endpoint, k: r.idempotencyKey };
          }),
        );
        const existing = await database.rows<{ k: string; body_hash: string; response: IngestAck }>(
          sql`select account_id || chr(1) || endpoint || chr(1) || key as k, body_hash, response from idempotency_keys
               where (account_id, endpoint, key) in
                 (select x.a, x.e, x.k from jsonb_to_recordset(${wanted}::jsonb) as x(a text, e text, k text))`,
          tx,
        );
        const byKey = new Map(existing.map((e) => [e.k, e]));
        for (const i of taken) {
          const found = byKey.get(keyOf(items[i] as NewRequest));
          if (!found) throw new Error("idempotency key vanished during claim");
          leaderHash.set(i, found.body_hash);
          // Live: the claim above takes over expired keys.
          outcomes[i] =
            idempotencyDecision({ bodyHash: found.body_hash }, (items[i] as NewRequest).bodyHash) === "replay"
              ? { kind: "replayed", ack: found.response }
              : { kind: "key_reused" };
        }
      }
    }

    const followerSet = new Set(followers.map(([i]) => i));
    const fresh = items.map((_, i) => i).filter((i) => outcomes[i] === undefined && !followerSet.has(i));
    if (fresh.length > 0) {
      // Bodies are spliced in as the JSON text they arrived as: no second serialisation.
      const rows = fresh.map((i) => {
        const r = items[i] as NewRequest;
        const head = JSON.stringify({
          a: r.accountId,
          i: (acks[i] as IngestAck).request_id,
          k: r.kind,
          t: r.traceId,
          tp: r.traceparent,
          ik: r.idempotencyKey,
          ak: r.apiKeyId,
          p: r.params,
          n: r.itemCount,
        });
        return `${head.slice(0, -1)},"b":${r.bodyJson}}`;
      });
      await insertPending(database, `[${rows.join(",")}]`, tx);
      for (const i of fresh) outcomes[i] = { kind: "accepted", ack: acks[i] as IngestAck };
    }
  };
  if (leaders.size > 0) await database.db.transaction(store);
  else await store();

  for (const [i, leader] of followers) {
    const led = outcomes[leader] as AcceptOutcome;
    const live = { bodyHash: leaderHash.get(leader) as string };
    outcomes[i] =
      led.kind !== "key_reused" && idempotencyDecision(live, (items[i] as NewRequest).bodyHash) === "replay"
        ? { kind: "replayed", ack: led.ack }
        : { kind: "key_reused" };
  }
  return outcomes as AcceptOutcome[];
}
