// Fills a database with months of history for the growth benchmark (bench/growth.ts), set-based:
// INSERT … SELECT generate_series through the server's own schema, in chunks, in acceptance order
// (so heap pages are laid out as a server's would be; indexes, when dropBulkIndexes is used, are
// built after the rows and are denser than a server's).
//
// The history: `accounts` accounts, each with `perAccount` one-order requests spread evenly over
// `spanDays` ending now. Every request is what the server writes for a one-order call that
// succeeded at its first attempt (worker/apply.ts, queue/transitions.ts), with a
// `request.succeeded` event (outbox/write.ts) delivered once to the account's subscription
// (webhooks/sql/): a UUIDv7 id carrying accepted_at, ULID event and delivery ids carrying their
// created_at, the outcome counts agreeing with the item, feed positions from the account's one
// sequence (the order's change, then the event: two per request, as the worker takes them), and
// `accounts.feed_seq` equal to the last position handed out. Requests come in runs of
// ORDER_REVISIONS on one order: the first creates it, the next ones update it (a new
// metadata.revision each time), so the order row holds its latest state at its latest position.
// The bodies are taken from the server itself: the template order is one the API stored.
import { createHash, randomBytes } from "node:crypto";
import type postgres from "postgres";

/** Requests per order: the first creates it, the others update it. */
export const ORDER_REVISIONS = 10;
/** How long after acceptance the worker starts and finishes a request, and delivers its event (ms). */
const STARTED_MS = 40;
const COMPLETED_MS = 60;
const DISPATCHED_MS = 70;
const DELIVERY_CREATED_MS = 80;
const ATTEMPTED_MS = 85;

export interface Shape {
  accounts: number;
  perAccount: number;
  spanDays: number;
  /** Epoch ms of the first request (now − span). */
  startMs: number;
  /** Milliseconds between two requests, across accounts. */
  stepMs: number;
}

export function shape(total: number, perAccount: number, spanDays: number, nowMs = Date.now()): Shape {
  const accounts = Math.max(1, Math.round(total / perAccount));
  const spanMs = spanDays * 86_400_000;
  return {
    accounts,
    perAccount,
    spanDays,
    startMs: nowMs - spanMs,
    stepMs: spanMs / (accounts * perAccount),
  };
}

const B32 = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";
/** SQL text: `chars` Crockford base32 characters of the bigint expression `v`, most significant first. */
const base32 = (v: string, chars: number) =>
  Array.from(
    { length: chars },
    (_, k) => `substr('${B32}', ((${v} >> ${5 * (chars - 1 - k)}) & 31)::int + 1, 1)`,
  ).join(" || ");

/**
 * Helper functions for the fill, dropped by `dropHelpers` afterwards: a ULID from its time and a
 * seed, a UUIDv7 the same way, and RFC 3339 text. The ULID's 16 random characters are hex digits
 * of md5(seed) (valid Crockford base32, 64 random bits of the 80): a third of the cost of drawing
 * 80 bits, which made the fill 3× slower. Each body is one expression without FROM, and no
 * stricter than what it calls (to_char is stable), so PostgreSQL inlines it: a call it does not
 * inline costs ~100 µs, most of the fill's time at first.
 */
export async function createHelpers(sql: postgres.Sql): Promise<void> {
  await sql.unsafe(`
    create or replace function growth_ulid(ms bigint, seed text) returns text language sql immutable as $$
      select ${base32("ms", 10)} || upper(substr(md5(seed), 1, 16)) $$`);
  await sql.unsafe(`
    create or replace function growth_uuid7(ms bigint, seed text) returns uuid language sql immutable as $$
      select (lpad(to_hex(ms), 12, '0') || '7' || substr(md5(seed), 1, 3) || '8' || substr(md5(seed), 4, 15))::uuid $$`);
  await sql.unsafe(`
    create or replace function growth_iso(ms bigint) returns text language sql stable as $$
      select to_char((timestamptz 'epoch' + ms * interval '1 millisecond') at time zone 'UTC',
                     'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') $$`);
  await sql.unsafe(`
    create or replace function growth_ts(ms bigint) returns timestamptz language sql immutable as $$
      select timestamptz 'epoch' + ms * interval '1 millisecond' $$`);
}

export async function dropHelpers(sql: postgres.Sql): Promise<void> {
  await sql.unsafe(
    `drop function if exists growth_ulid(bigint, text), growth_uuid7(bigint, text), growth_iso(bigint), growth_ts(bigint)`,
  );
}

/** A ULID made here: 48-bit time, then 80 random bits, in Crockford base32. */
function ulid(ms = Date.now()): string {
  let time = "";
  for (let k = 9, t = ms; k >= 0; k--, t = Math.floor(t / 32)) time = B32[t % 32] + time;
  return time + Array.from(randomBytes(16), (b) => B32[b % 32]).join("");
}

/**
 * Accounts written as `oisr-server accounts create` writes them (store/accounts.ts): the account,
 * an admin key with the permissions of `template`'s key, and the key's secret, stored only as its
 * hash. Returns their tokens. Fifty CLI processes took minutes on a loaded machine; this takes one
 * statement.
 */
export async function writeAccounts(
  sql: postgres.Sql,
  template: string,
  count: number,
  name: string,
): Promise<{ accountId: string; keyId: string; token: string }[]> {
  const made = Array.from({ length: count }, (_, n) => {
    const token = `oisr_${randomBytes(32).toString("base64url")}`;
    return {
      n,
      accountId: `acc_${ulid()}`,
      keyId: `key_${ulid()}`,
      token,
      hash: createHash("sha256").update(token).digest("hex"),
      prefix: token.slice(0, 12),
    };
  });
  for (let at = 0; at < made.length; at += 5000) {
    const part = made.slice(at, at + 5000).map(({ token: _, ...rest }) => rest);
    await sql`
      with input as (
        select (x->>'n')::int as n, x->>'accountId' as id, x->>'keyId' as key_id, x->>'hash' as hash,
               x->>'prefix' as prefix
          from jsonb_array_elements(${sql.json(part as never)}::jsonb) x),
      a as (insert into accounts (id, name) select id, ${name} || '-' || n from input),
      k as (insert into api_keys (id, account_id, name, permissions, prefix, created_at)
            select i.key_id, i.id, t.name, t.permissions, i.prefix, now()
              from input i, api_keys t where t.account_id = ${template})
      insert into api_tokens (token_hash, account_id, key_id) select hash, id, key_id from input`;
  }
  return made.map(({ accountId, keyId, token }) => ({ accountId, keyId, token }));
}

/**
 * The fill's accounts, `growth_accounts(n, id, key_id, sub_id)`: account 0 is `reader` (made by
 * the CLI, with a token the benchmark reads with), the others written by writeAccounts. Each gets
 * a subscription to `request.succeeded` at `hookUrl`, and its request_queues row (none open).
 */
export async function createAccounts(
  sql: postgres.Sql,
  reader: { accountId: string },
  count: number,
  hookUrl: string,
): Promise<void> {
  await sql`create table growth_accounts (n int primary key, id text not null, key_id text not null, sub_id text)`;
  await sql`insert into growth_accounts
            select 0, ${reader.accountId}, id from api_keys where account_id = ${reader.accountId}`;
  const others = await writeAccounts(sql, reader.accountId, count - 1, "growth");
  for (let at = 0; at < others.length; at += 5000)
    await sql`insert into growth_accounts
              select (x->>'n')::int + 1, x->>'accountId', x->>'keyId'
                from jsonb_array_elements(${sql.json(
                  others.slice(at, at + 5000).map((o, k) => ({ ...o, token: undefined, n: at + k })) as never,
                )}::jsonb) x`;
  await sql`update growth_accounts set sub_id = 'whs_' || growth_ulid((extract(epoch from now()) * 1000)::bigint, 'whs' || n)`;
  await sql`
    insert into webhook_subscriptions (account_id, id, url, events, secret)
    select id, sub_id, ${hookUrl}, array['request.succeeded'],
           'whsec_' || encode(sha256(convert_to(id || random()::text, 'UTF8')), 'base64')
      from growth_accounts`;
  await sql`insert into request_queues (account_id, open_count)
            select id, 0 from growth_accounts on conflict (account_id) do nothing`;
}

/** Per-account ranges `[lo, hi)` covering `from`..`to`, about `chunk` rows of all accounts each. */
function* chunks(s: Shape, from: number, to: number, chunk: number): Generator<[number, number]> {
  const perChunk = Math.max(1, Math.floor(chunk / s.accounts));
  for (let lo = from; lo < to; lo += perChunk) yield [lo, Math.min(to, lo + perChunk)];
}

/**
 * Which accounts one fill session writes: those with `n % of = index`. Sessions filling the same
 * range in parallel touch the same partitions but never the same account, so their rows are the
 * ones one session would write (a backend per session: PostgreSQL runs a statement on one core).
 */
export interface Part {
  index: number;
  of: number;
}
const WHOLE: Part = { index: 0, of: 1 };

/**
 * Requests `from`..`to` (exclusive) of every account of `part`, with their events and deliveries,
 * in chunks of about `chunk` requests, in acceptance order. `input` is the order as the caller sends it.
 */
export async function fillRequests(
  sql: postgres.Sql,
  s: Shape,
  input: unknown,
  from: number,
  to: number,
  part: Part = WHOLE,
  chunk = 100_000,
): Promise<void> {
  for (const [lo, hi] of chunks(s, from, to, chunk * part.of)) {
    // Each step is a MATERIALIZED CTE so the helpers get plain columns as arguments: PostgreSQL
    // inlines a SQL function only then, and a call it does not inline costs ~100 µs.
    const plan = await sql`${sql.unsafe(process.env.GROWTH_PLAN ? "explain (analyze, buffers)" : "")}
      with tpl as materialized (
        select ${sql.json(input as never)}::jsonb as input, ${sql.json(input as never)}::jsonb -> 'metadata' as meta),
      base as materialized (
        select a.n as a, a.id as account_id, a.key_id, a.sub_id, i, j, k, gi, ms, ms + ${STARTED_MS} as started_ms,
               ms + ${COMPLETED_MS} as completed_ms, ms - 1000 as source_ms, 'r' || gi as rseed, 'e' || gi as eseed,
               'o' || a.n || '.' || j as oseed,
               ${s.startMs}::bigint + ${COMPLETED_MS}
                 + floor((j * ${ORDER_REVISIONS}::bigint * ${s.accounts} + a.n) * ${s.stepMs}::float8)::bigint as order_ms
          from (select * from growth_accounts where n % ${part.of} = ${part.index}) a,
               generate_series(${lo}::bigint, ${hi - 1}::bigint) i,
               lateral (select i / ${ORDER_REVISIONS} as j, (i % ${ORDER_REVISIONS})::int as k,
                               i * ${s.accounts} + a.n as gi) x,
               lateral (select ${s.startMs}::bigint + floor(gi * ${s.stepMs}::float8)::bigint as ms) t),
      g as materialized (
        select base.*, growth_iso(ms) as accepted, growth_iso(started_ms) as started,
               growth_iso(completed_ms) as completed, growth_iso(source_ms) as source_updated_at,
               growth_uuid7(ms, rseed) as request_id, md5('t' || gi) as trace_id,
               'ord_' || growth_ulid(order_ms, oseed) as order_id,
               'evt_' || growth_ulid(completed_ms, eseed) as event_id
          from base),
      r as materialized (
        select g.*, jsonb_build_object(
                 'items', jsonb_build_array(jsonb_build_object('id', order_id, 'type', 'order', 'index', 0,
                   'outcome', case when k = 0 then 'created' else 'updated' end)),
                 'stale', 0, 'created', case when k = 0 then 1 else 0 end,
                 'updated', case when k = 0 then 0 else 1 end, 'unchanged', 0) as result
          from g),
      req as (
        insert into requests (account_id, id, seq, kind, status, trace_id, api_key_id, body, item_count,
                              accepted_at, started_at, completed_at, attempts, next_attempt_at, result)
        select account_id, request_id, gi + 1, 'orders', 'succeeded', trace_id, key_id,
               jsonb_build_object('orders', jsonb_build_array(tpl.input || jsonb_build_object(
                 'external_id', 'growth-' || a || '-' || j, 'source_updated_at', source_updated_at,
                 'metadata', tpl.meta || jsonb_build_object('revision', k::text)))),
               1, growth_ts(ms), growth_ts(ms + ${STARTED_MS}), growth_ts(ms + ${COMPLETED_MS}), 1, growth_ts(ms),
               result
          from r, tpl),
      ev as (
        insert into events (account_id, id, seq, feed_seq, type, payload, created_at, dispatched_at, traceparent)
        select account_id, event_id, gi + 1, 2 * i + 2, 'request.succeeded',
               jsonb_build_object('id', event_id, 'type', 'request.succeeded', 'api_key_id', key_id,
                 'created_at', completed,
                 'data', jsonb_build_object('object', jsonb_build_object(
                   'url', '/v2/requests/' || request_id, 'kind', 'orders', 'error', null, 'errors', '[]'::jsonb,
                   'result', result, 'status', 'succeeded', 'attempts', 1, 'trace_id', trace_id,
                   'api_key_id', key_id, 'item_count', 1, 'request_id', request_id,
                   'started_at', started, 'accepted_at', accepted, 'completed_at', completed,
                   'errors_total', 0, 'idempotency_key', null))),
               growth_ts(ms + ${COMPLETED_MS}), growth_ts(ms + ${DISPATCHED_MS}),
               '00-' || trace_id || '-0000000000000000-00'
          from r)
      insert into webhook_deliveries (account_id, id, subscription_id, event_id, event_type, trigger, round,
                                      attempt, status, attempted_at, response_status, duration_ms, created_at)
      select account_id, 'whd_' || growth_ulid(delivery_ms, dseed), sub_id, event_id,
             'request.succeeded', 'event', 0, 1, 'succeeded', growth_ts(ms + ${ATTEMPTED_MS}), 204,
             ${ATTEMPTED_MS - DELIVERY_CREATED_MS + 5}, growth_ts(delivery_ms)
        from (select r.*, ms + ${DELIVERY_CREATED_MS} as delivery_ms, 'd' || gi as dseed from r offset 0) d`;
    if (process.env.GROWTH_PLAN) console.log(plan.map((x) => Object.values(x)[0]).join("\n"));
  }
}

/**
 * Orders `from`..`to` (exclusive) of every account of `part`, each in the state its last request
 * left it (requests run j·R … j·R + R − 1, R = ORDER_REVISIONS, capped at the account's last
 * request). `stored` is the order body as the server stored it.
 */
export async function fillOrders(
  sql: postgres.Sql,
  s: Shape,
  stored: unknown,
  from: number,
  to: number,
  part: Part = WHOLE,
  chunk = 100_000,
): Promise<void> {
  for (const [lo, hi] of chunks(s, from, to, chunk * part.of)) {
    await sql`
      with tpl as materialized (
        select ${sql.json(stored as never)}::jsonb as body, ${sql.json(stored as never)}::jsonb -> 'metadata' as meta),
      o as materialized (
        select a.n as a, 'o' || a.n || '.' || j as oseed, a.id as account_id, j, last, created_ms,
               ${s.startMs}::bigint + floor((last * ${s.accounts} + a.n) * ${s.stepMs}::float8)::bigint as last_ms
          from (select * from growth_accounts where n % ${part.of} = ${part.index}) a,
               generate_series(${lo}::bigint, ${hi - 1}::bigint) j,
               lateral (select least(j * ${ORDER_REVISIONS} + ${ORDER_REVISIONS - 1}, ${s.perAccount - 1}::bigint) as last,
                               ${s.startMs}::bigint + floor((j * ${ORDER_REVISIONS}::bigint * ${s.accounts} + a.n) * ${s.stepMs}::float8)::bigint
                                 + ${COMPLETED_MS} as created_ms) x)
      insert into orders (account_id, id, external_id, status, source, feed_seq, updated_at, body)
      select account_id, order_id, external_id, 'open', 'shopify', 2 * last + 1, growth_ts(updated_ms),
             tpl.body || jsonb_build_object(
               'id', order_id, 'external_id', external_id, 'version', last - j * ${ORDER_REVISIONS} + 1,
               'metadata', tpl.meta || jsonb_build_object('revision', (last - j * ${ORDER_REVISIONS})::text),
               'source_updated_at', growth_iso(source_ms), 'created_at', growth_iso(created_ms),
               'updated_at', growth_iso(updated_ms))
        from (select o.*, 'ord_' || growth_ulid(created_ms, oseed) as order_id, 'growth-' || a || '-' || j as external_id,
                     last_ms - 1000 as source_ms, last_ms + ${COMPLETED_MS} as updated_ms
                from o offset 0) x, tpl`;
  }
}

/** What the fill leaves consistent: sequences past the rows written, each account's feed position. */
export async function finishFill(sql: postgres.Sql, s: Shape): Promise<void> {
  const last = s.accounts * s.perAccount;
  await sql`select setval('requests_seq_seq', ${last})`;
  await sql`select setval('events_seq_seq', ${last})`;
  await sql`update accounts a set feed_seq = ${2 * s.perAccount} from growth_accounts g where g.id = a.id`;
}

/** The partitioned tables the fill writes a row per request into. */
const BULK_TABLES = ["requests", "events", "webhook_deliveries"];

/** How to make an index or a primary key again, as it was. */
export interface SavedIndex {
  table: string;
  name: string;
  statement: string;
}

/**
 * Drops the primary keys and the full (not partial) secondary indexes of `requests`, `events`
 * and `webhook_deliveries`, and returns how to make them again, as pg_restore does: index entries
 * cost most of each inserted row (three rows and 15 index entries a request), and one sorted build
 * after the fill is cheaper than millions of inserts. The partial indexes stay: no filled row is
 * in them (every request succeeded, every event was dispatched and delivered), so they cost an
 * insert one predicate check and would cost a rebuild a full scan.
 */
export async function dropBulkIndexes(sql: postgres.Sql): Promise<SavedIndex[]> {
  const rows = await sql<
    { table: string; name: string; def: string; pk: boolean; constraint: string | null }[]
  >`
    select c.relname as table, x.relname as name, pg_get_indexdef(i.indexrelid) as def, i.indisprimary as pk,
           (select pg_get_constraintdef(k.oid) from pg_constraint k where k.conindid = i.indexrelid
               and k.conrelid = i.indrelid and k.contype = 'p') as constraint
      from pg_index i join pg_class c on c.oid = i.indrelid join pg_class x on x.oid = i.indexrelid
     where c.relname in ${sql(BULK_TABLES)} and c.relnamespace = 'public'::regnamespace
       and i.indpred is null and (i.indisprimary or not i.indisunique)
     order by i.indisprimary desc, c.relname, x.relname`;
  const saved: SavedIndex[] = [];
  for (const r of rows) {
    if (r.pk) {
      await sql.unsafe(`alter table ${r.table} drop constraint ${r.name}`);
      saved.push({
        table: r.table,
        name: r.name,
        statement: `alter table ${r.table} add constraint ${r.name} ${r.constraint}`,
      });
    } else {
      await sql.unsafe(`drop index ${r.name}`);
      // The definition of a partitioned table's index reads "ON ONLY": built that way it would
      // cover the parent alone and stay invalid.
      saved.push({ table: r.table, name: r.name, statement: r.def.replace(" ON ONLY ", " ON ") });
    }
  }
  return saved;
}

/** Runs `work` over `items` with one session of `pool` each at a time, every session busy. */
export async function inParallel<T>(
  pool: postgres.Sql[],
  items: T[],
  work: (sql: postgres.Sql, item: T) => Promise<void>,
): Promise<void> {
  const queue = [...items];
  await Promise.all(
    pool.map(async (sql) => {
      for (let item = queue.shift(); item !== undefined; item = queue.shift()) await work(sql, item);
    }),
  );
}

/** Makes the dropped indexes again (primary keys first), one build per session of `pool` at a time. */
export async function restoreIndexes(pool: postgres.Sql[], saved: SavedIndex[]): Promise<void> {
  await inParallel(pool, saved, async (sql, index) => {
    await sql.unsafe(index.statement);
  });
}

/**
 * VACUUM ANALYZE of every table, the leaf tables spread over the sessions of `pool` (a table's
 * VACUUM runs on one core), then ANALYZE of the partitioned parents: their own statistics, sampled
 * over the partitions, which a partition's VACUUM ANALYZE does not make (PostgreSQL 15 analyzes
 * the partitions again there; a sample of 30,000 rows each, seconds against the VACUUM's minutes).
 */
export async function vacuumAnalyze(pool: postgres.Sql[]): Promise<void> {
  const [first] = pool;
  if (!first) return;
  const tables = await first<{ name: string; parent: boolean }[]>`
    select relname as name, relkind = 'p' as parent from pg_class
     where relnamespace = 'public'::regnamespace and relkind in ('r', 'p', 'm')
     order by pg_relation_size(oid) desc`;
  await inParallel(
    pool,
    tables.filter((t) => !t.parent).map((t) => t.name),
    async (sql, name) => {
      await sql.unsafe(`vacuum analyze "${name}"`);
    },
  );
  const parents = tables.filter((t) => t.parent).map((t) => `"${t.name}"`);
  if (parents.length > 0) await first.unsafe(`analyze ${parents.join(", ")}`);
}
