// Writes one applied batch: resources with their new change-feed positions, and the outbox events
// with their GET /events positions, all inside the caller's transaction. Each statement has one
// fixed text whatever the batch size: the rows travel as one JSON parameter and PostgreSQL unpacks
// them, which keeps a 1000-order batch to a few statements, each prepared once.
import { webhookEventBody } from "@oisr/contract";
import { eq, sql } from "drizzle-orm";
import type { Tx } from "../db/client.ts";
import { accounts } from "../db/schema.ts";
import { newId } from "./ids.ts";

interface FeedResource {
  id: string;
  external_id: string;
  status: string;
  updated_at: string;
}

export interface BatchChanges {
  orders: (FeedResource & { source: string })[];
  returns: (FeedResource & { order_id: string })[];
  shipments: { id: string; external_id: string; order_id: string }[];
  inventory: { location_id: string; sku: string; as_of: string }[];
}

export interface OutboxEvent {
  type: string;
  object: unknown;
  /**
   * The trace its deliveries continue (telemetry/traceparent.ts eventTraceparent): the writing
   * stage's span with tracing on, else the trace id of the request that caused it.
   */
  traceparent?: string | null;
  /** The API key of the request whose apply caused it. */
  apiKeyId: string | null;
}

/** `e(body, n)`: the JSON array's elements with their 1-based position. */
const elements = (rows: unknown[]) =>
  sql`jsonb_array_elements(${JSON.stringify(rows)}::jsonb) with ordinality as e(body, n)`;

export async function writeChanges(
  tx: Tx,
  accountId: string,
  changes: BatchChanges,
  outbox: OutboxEvent[],
  now: string,
): Promise<void> {
  // Orders, returns and events take their positions from one per-account sequence (each feed
  // reads only its own table, so the gaps the others leave are harmless).
  const feedCount = changes.orders.length + changes.returns.length + outbox.length;
  let seq = 0;
  if (feedCount > 0) {
    // Taking the account row lock here orders this account's commits, so feed positions are
    // handed out in commit order and a poller can never skip past an uncommitted change. The
    // events' global bigserial `seq` could not serve GET /events: it is drawn at insert, so a
    // transaction holding seq 10 may commit after one holding seq 11 has been read past.
    const [row] = await tx
      .update(accounts)
      .set({ feedSeq: sql`${accounts.feedSeq} + ${feedCount}` })
      .where(eq(accounts.id, accountId))
      .returning({ feedSeq: accounts.feedSeq });
    if (!row) throw new Error(`account ${accountId} vanished`);
    seq = Number(row.feedSeq) - feedCount;
  }

  // An entity whose version did not change (only its source watermark moved) keeps its feed
  // position: consumers upsert by version, so sending it again would be noise.
  if (changes.orders.length > 0) {
    await tx.execute(sql`
      insert into orders (account_id, id, external_id, status, source, feed_seq, updated_at, body)
      select ${accountId}, e.body->>'id', e.body->>'external_id', e.body->>'status', e.body->>'source',
             ${seq}::bigint + e.n, (e.body->>'updated_at')::timestamptz, e.body
        from ${elements(changes.orders)}
      on conflict (account_id, id) do update set
        status = excluded.status, source = excluded.source, updated_at = excluded.updated_at, body = excluded.body,
        feed_seq = case when orders.body->'version' = excluded.body->'version' then orders.feed_seq else excluded.feed_seq end`);
    seq += changes.orders.length;
  }
  if (changes.returns.length > 0) {
    await tx.execute(sql`
      insert into returns (account_id, id, external_id, order_id, status, feed_seq, updated_at, body)
      select ${accountId}, e.body->>'id', e.body->>'external_id', e.body->>'order_id', e.body->>'status',
             ${seq}::bigint + e.n, (e.body->>'updated_at')::timestamptz, e.body
        from ${elements(changes.returns)}
      on conflict (account_id, id) do update set
        status = excluded.status, updated_at = excluded.updated_at, body = excluded.body,
        feed_seq = case when returns.body->'version' = excluded.body->'version' then returns.feed_seq else excluded.feed_seq end`);
    seq += changes.returns.length;
  }
  if (changes.shipments.length > 0) {
    await tx.execute(sql`
      insert into shipments (account_id, id, external_id, order_id, body)
      select ${accountId}, e.body->>'id', e.body->>'external_id', e.body->>'order_id', e.body
        from ${elements(changes.shipments)}
      on conflict (account_id, id) do update set body = excluded.body`);
  }
  if (changes.inventory.length > 0) {
    await tx.execute(sql`
      insert into inventory_levels (account_id, location_id, sku, as_of, body)
      select ${accountId}, e.body->>'location_id', e.body->>'sku', (e.body->>'as_of')::timestamptz, e.body
        from ${elements(changes.inventory)}
      on conflict (account_id, location_id, sku) do update set as_of = excluded.as_of, body = excluded.body`);
  }
  if (outbox.length > 0) {
    // The payload is the webhook body and the GET /events object alike: one shape, stored once.
    const rows = outbox.map((e) => {
      const id = newId("evt");
      return {
        id,
        type: e.type,
        payload: webhookEventBody(id, e.type, now, e.apiKeyId, e.object),
        traceparent: e.traceparent ?? null,
      };
    });
    await tx.execute(sql`
      insert into events (account_id, id, feed_seq, type, created_at, payload, traceparent)
      select ${accountId}, e.body->>'id', ${seq}::bigint + e.n, e.body->>'type', ${now}::timestamptz,
             e.body->'payload', e.body->>'traceparent'
        from ${elements(rows)} order by e.n`);
  }
}
