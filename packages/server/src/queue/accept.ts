// One statement for a batch of ingest calls (decision 018): it decides the access of the calls
// whose access is still open (authentication, permission and rate limits, oisr_authorize_keys,
// store/access.ts), claims the idempotency keys of the calls it lets through, inserts every new
// request row, counts it into its account's queue and wakes the workers. A call thus waits on one
// round trip from its headers to its 202. A call refused there (401, 403, 429) stores nothing and
// counts toward nothing, since the function counts only the calls it lets through. Only a replay or
// a reused key takes a second statement, to read the stored answer: the first did not see it
// (a key claimed by a transaction that committed after the statement's snapshot).
import { type IngestAccepted, idempotencyDecision, ingestAccepted } from "@oisr/contract";
import { type SQL, sql } from "drizzle-orm";
import { REQUESTS_CHANNEL } from "../db/channels.ts";
import type { Database } from "../db/client.ts";
import {
  type Access,
  type AccessCall,
  type AccessStatement,
  type AuthorizeRow,
  letThrough,
} from "../store/access.ts";
import { newRequestId } from "../store/ids.ts";
import { startPublishSpan } from "../telemetry/queue-spans.ts";
import { IDEMPOTENCY_WINDOW } from "./maintenance.ts";
import type { RequestKind } from "./statuses.ts";

export type IngestAck = IngestAccepted;

/**
 * The live records of the keys in `wanted` (JSON of `{a, e, k}`: account, endpoint, key); an
 * expired one waits for its partition to be dropped. Oldest first, so a map keeps the newest should
 * a key have two live records (retry.ts's bulk replay).
 *
 * One probe of the key's index per key, in every plan: each key drives a lateral subquery that
 * `offset 0` keeps from being flattened into a join. As `(account_id, endpoint, key) in (select …)`
 * the generic plan of this prepared statement, made while the day's partition was new and
 * unanalysed, read every live key of every account and hashed the few wanted against them
 * (store/state-loader.ts byKeys; decision 017, "Session 19").
 */
export function liveKeys(wanted: string): SQL {
  return sql`select i.a, i.e, i.k, i.body_hash, i.response
      from jsonb_to_recordset(${wanted}::jsonb) as x(a text, e text, k text)
      cross join lateral (
        select account_id as a, endpoint as e, key as k, body_hash, response, created_at from idempotency_keys
         where account_id = x.a and endpoint = x.e and key = x.k and created_at >= now() - ${IDEMPOTENCY_WINDOW}
        offset 0) i
     order by i.created_at`;
}

/** A call whose access the storing statement decides: the call, and the statement that decides it. */
export interface DeferredAccess {
  call: AccessCall;
  via: AccessStatement;
}

export interface NewRequest {
  /** Null exactly when `access` is set: the account then comes from the call's key. */
  accountId: string | null;
  kind: RequestKind;
  /** "POST /ingest/…" as called: the idempotency scope. */
  endpoint: string;
  params: Record<string, string> | null;
  /** The body as received, serialised once: hashed for idempotency and stored as is. */
  bodyJson: string;
  /**
   * SHA-256 hex of `bodyJson`, which only an idempotency key compares: null for a call without one
   * (the hash of a one-order body was 3 % of the API process's CPU).
   */
  bodyHash: string | null;
  itemCount: number;
  idempotencyKey: string | null;
  /** The API key of the call (res.locals.apiKey); null where no key called (tests) or `access` is set. */
  apiKeyId: string | null;
  /** Set when the call's access is still to be decided: by the statement that stores it. */
  access?: DeferredAccess;
  traceId: string;
  /** The call's publish span (tracing on only), stored so the worker's spans can link to it. */
  traceparent?: string;
}

export type AcceptOutcome = (
  | { kind: "accepted" | "replayed"; ack: IngestAck }
  | { kind: "key_reused" }
  /** Its access was refused (see `access`): nothing stored, nothing counted. */
  | { kind: "refused" }
) & {
  /** The access decided for a call that came with `access`. */
  access?: Access;
};

// \u0001 joins the parts: none can contain it (all printable), and PostgreSQL text cannot hold \u0000.
// A call whose account is not known yet is grouped by its secret's hash: the same secret is the
// same account. (The same key sent with two secrets of one account in one batch makes two leaders,
// whose claims meet in one statement and fail it; the batch is then retried call by call.)
const keyOf = (r: NewRequest) =>
  `${r.accountId ?? r.access?.call.hash}\u0001${r.endpoint}\u0001${r.idempotencyKey}`;

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
      outcome.kind === "accepted" || outcome.kind === "replayed"
        ? { requestId: outcome.ack.request_id, replayed: outcome.kind === "replayed" }
        : {},
    );
    return outcome;
  } catch (err) {
    span.fail(err);
    throw err;
  }
}

/** The body hash of a call with an idempotency key, which must come with one. */
function keyedHash(r: NewRequest): string {
  if (r.bodyHash === null) throw new Error("a call with an idempotency key came without its body hash");
  return r.bodyHash;
}

/** The row the statement returns per inserted request, besides the access rows. */
type StoredRow = { stored: string | null };

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
  const followerSet = new Set(followers.map(([i]) => i));

  // Calls whose access is decided here: c, 1-based, is a call's place in the access statement.
  const deferred: number[] = [];
  const callOf = new Map<number, number>();
  items.forEach((r, i) => {
    if (!r.access) return;
    deferred.push(i);
    callOf.set(i, deferred.length);
  });
  const calls = deferred.map((i) => (items[i] as NewRequest).access?.call as AccessCall);
  const via =
    deferred.length > 0 ? ((items[deferred[0] as number] as NewRequest).access as DeferredAccess).via : null;

  // Every call but a follower is a row; bodies are spliced in as the JSON text they arrived as (no
  // second serialisation), and the statement has one text whatever the batch size.
  const rows = items.flatMap((r, i) => {
    if (followerSet.has(i)) return [];
    const ack = acks[i] as IngestAck;
    const head = JSON.stringify({
      c: callOf.get(i) ?? null,
      a: r.accountId,
      i: ack.request_id,
      k: r.kind,
      t: r.traceId,
      tp: r.traceparent,
      ik: r.idempotencyKey,
      ak: r.apiKeyId,
      p: r.params,
      n: r.itemCount,
      e: r.endpoint,
      h: r.idempotencyKey === null ? undefined : r.bodyHash,
      x: r.idempotencyKey === null ? undefined : ack,
    });
    return [`${head.slice(0, -1)},"b":${r.bodyJson}}`];
  });

  const result = await database.rows<AuthorizeRow | (StoredRow & { i: undefined })>(
    storeStatement(`[${rows.join(",")}]`, via === null ? null : via.call(calls)),
  );
  const accessRows: AuthorizeRow[] = [];
  const stored = new Set<string>();
  for (const row of result) {
    if ("stored" in row && row.stored !== null && row.stored !== undefined) stored.add(row.stored);
    else accessRows.push(row as AuthorizeRow);
  }
  const accesses = via === null ? [] : via.read(calls, accessRows);
  const accessOf = (i: number): Access | undefined => {
    const c = callOf.get(i);
    return c === undefined ? undefined : accesses[c - 1];
  };
  const through = (i: number) => {
    const access = accessOf(i);
    return access === undefined || letThrough(access);
  };

  // Calls let through whose key was live: their stored answer is read after the statement.
  const taken: number[] = [];
  items.forEach((r, i) => {
    if (followerSet.has(i)) return;
    const access = accessOf(i);
    const base = access ? { access } : {};
    if (!through(i)) outcomes[i] = { kind: "refused", ...base };
    else if (stored.has((acks[i] as IngestAck).request_id))
      outcomes[i] = { kind: "accepted", ack: acks[i] as IngestAck, ...base };
    else if (r.idempotencyKey !== null) taken.push(i);
    else throw new Error("a request let through was not stored");
  });

  const liveHash = new Map<number, string>();
  for (const [, i] of leaders) liveHash.set(i, keyedHash(items[i] as NewRequest));
  if (taken.length > 0) {
    const wanted = JSON.stringify(
      taken.map((i) => {
        const r = items[i] as NewRequest;
        return { a: r.accountId ?? accessOf(i)?.account?.id, e: r.endpoint, k: r.idempotencyKey };
      }),
    );
    const existing = await database.rows<{
      a: string;
      e: string;
      k: string;
      body_hash: string;
      response: IngestAck;
    }>(liveKeys(wanted));
    const byKey = new Map(existing.map((e) => [`${e.a}\u0001${e.e}\u0001${e.k}`, e]));
    for (const i of taken) {
      const r = items[i] as NewRequest;
      const access = accessOf(i);
      const found = byKey.get(
        `${r.accountId ?? access?.account?.id}\u0001${r.endpoint}\u0001${r.idempotencyKey}`,
      );
      if (!found) throw new Error("idempotency key vanished during claim");
      liveHash.set(i, found.body_hash);
      // Live: the claim above stores a new record over an expired one.
      const decided: AcceptOutcome =
        idempotencyDecision({ bodyHash: found.body_hash }, keyedHash(r)) === "replay"
          ? { kind: "replayed", ack: found.response }
          : { kind: "key_reused" };
      outcomes[i] = access ? { ...decided, access } : decided;
    }
  }

  for (const [i, leader] of followers) {
    const access = accessOf(i);
    const base = access ? { access } : {};
    const led = outcomes[leader] as AcceptOutcome;
    if (!through(i)) {
      outcomes[i] = { kind: "refused", ...base };
      continue;
    }
    // A follower let through follows a leader let through: the leader came first in its group.
    const live = { bodyHash: liveHash.get(leader) as string };
    outcomes[i] =
      (led.kind === "accepted" || led.kind === "replayed") &&
      idempotencyDecision(live, keyedHash(items[i] as NewRequest)) === "replay"
        ? { kind: "replayed", ack: led.ack, ...base }
        : { kind: "key_reused", ...base };
  }
  return outcomes as AcceptOutcome[];
}

/** A row of `inserted` in the shape of oisr_authorize_keys' rows, which it follows in one answer. */
const NOT_ACCESS =
  sql.raw(`null::int, null::text, null::text, null::text, null::jsonb, null::text, null::text,
  null::double precision, null::double precision, null::double precision, null::text, null::int, null::int,
  null::int, null::text, null::int, null::int, null::bigint`);

/**
 * The one statement. `access` is the access call of the batch's deferred calls (null when none): a
 * deferred row (c set) is kept only if its call was let through, and takes its account and key from
 * it. Keyed rows claim their key (a live key of another call is left alone: that row is not
 * stored; of two rows with one key in a batch, the first), and every row left is inserted `pending`
 * and counted into its account's queue. Lock order: the rate-limit advisory locks (in
 * oisr_authorize_keys), then the idempotency keys' advisory locks (oisr_claim_idempotency_keys),
 * then idempotency_keys, requests and request_queues.
 */
function storeStatement(rowsJson: string, access: SQL | null): SQL {
  // json, not jsonb: a body (`b`) is then taken as the slice of the text it arrived as and stored
  // as that text, where jsonb parsed the batch into its binary form and took each body out of it
  // as a value of its own (a 1 MB body: 8.5 against 24.3 ms of PostgreSQL CPU; decision 028).
  const rows = sql`json_to_recordset(${rowsJson}::json)
    as x(c int, a text, i uuid, k text, t text, tp text, ik text, ak text, p jsonb, b json, n int, e text, h text, x jsonb)`;
  const decided =
    access === null
      ? sql`src as (select x.a, x.i, x.k, x.t, x.tp, x.ik, x.ak, x.p, x.b, x.n, x.e, x.h, x.x from ${rows}),`
      : sql`auth as materialized (select t.* from ${access} as t),
    -- take_many's rows (i null) say how many of each group it let through, first come first.
    -- Materialized and joined to the groups' minimum once: inlined into src's nested loop, the
    -- per-row subquery ran calls² times (400 scans of auth for a batch of 20, ~150 µs of
    -- PostgreSQL CPU per call; 3× that at 50).
    through as materialized (
      select c.i, c.account_id, c.key_id from auth c
        left join (select g.grp, min(g.allowed) as allowed from auth g where g.i is null group by g.grp) g
          on g.grp = c.grp
       where c.i is not null and c.verdict = 'ok' and (g.allowed is null or c.pos < g.allowed)),
    src as (
      select coalesce(t.account_id, x.a) as a, x.i, x.k, x.t, x.tp, x.ik, coalesce(t.key_id, x.ak) as ak, x.p, x.b,
             x.n, x.e, x.h, x.x
        from ${rows}
        left join through t on t.i = x.c
       where x.c is null or t.i is not null),`;
  const answer =
    access === null
      ? sql`select i.id::text as stored from inserted i, (select count(*) from woken) w`
      : sql`select a.*, null::text as stored from auth a
    union all
    select ${NOT_ACCESS}, i.id::text from inserted i, (select count(*) from woken) w`;
  return sql`with ${decided}
    -- oisr_claim_idempotency_keys (migration 0014, decision 020) locks each key, then stores the
    -- keys with no live record: the table is partitioned by time, so no unique index can do it.
    claimed as materialized (
      select c.request_id from oisr_claim_idempotency_keys(
        (select jsonb_agg(jsonb_build_object('a', s.a, 'e', s.e, 'ik', s.ik, 'h', s.h, 'i', s.i, 'x', s.x))
           from src s where s.ik is not null),
        ${IDEMPOTENCY_WINDOW}) c),
    inserted as (
      insert into requests (account_id, id, kind, status, trace_id, traceparent, idempotency_key, api_key_id, params, body, item_count)
      select s.a, s.i, s.k, 'pending', s.t, s.tp, s.ik, s.ak, s.p, s.b, s.n from src s
       where s.ik is null or s.i in (select request_id from claimed)
      returning account_id, id),
    queued as (
      insert into request_queues as q (account_id, open_count, due_at)
      select account_id, count(*), now() from inserted group by account_id order by account_id
      on conflict (account_id) do update
         set open_count = q.open_count + excluded.open_count, due_at = coalesce(q.due_at, excluded.due_at)
      returning q.due_at = now() as woke),
    woken as (select pg_notify(${REQUESTS_CHANNEL}, '') from queued where woke limit 1)
    ${answer}`;
}
