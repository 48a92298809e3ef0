// Baseline for end-to-end throughput: a plain postgres.js script inserting the same orders, in
// batches of the same size, one batch after another, into a table shaped like the server's
// `orders` (same columns, primary key and unique indexes), with bodies shaped like the stored ones.
//   DATABASE_URL=… BASELINE_BATCHES=100 BASELINE_BATCH_SIZE=1000 node bench/baselines/bulk-orders.ts
// Prints {"ms": …, "rows": …} on stdout.
import postgres from "postgres";
import { order } from "../lib/fixtures.ts";

const batches = Number(process.env.BASELINE_BATCHES ?? 100);
const size = Number(process.env.BASELINE_BATCH_SIZE ?? 1000);
const sql = postgres(process.env.DATABASE_URL as string, { max: 1, onnotice: () => {} });

await sql`create table if not exists baseline_orders (
  account_id text not null, id text not null, external_id text not null, status text not null,
  source text not null, feed_seq bigint not null, updated_at timestamptz not null, body jsonb not null,
  primary key (account_id, id))`;
await sql`create unique index if not exists baseline_orders_external_idx on baseline_orders (account_id, external_id)`;
await sql`create unique index if not exists baseline_orders_feed_idx on baseline_orders (account_id, feed_seq)`;

/** An address as the server stores it: every optional member the caller left out is null. */
const address = <A extends object>(a: A) => ({
  company: null,
  line2: null,
  region: null,
  postal_code: null,
  phone: null,
  email: null,
  ...a,
});

/** What the server stores for an order: the submitted document plus the server-owned fields. */
function stored(externalId: string, seq: number) {
  const now = new Date().toISOString();
  const o = order(externalId);
  const id = `ord_${seq.toString(36).toUpperCase().padStart(26, "0")}`;
  return {
    ...o,
    id,
    status: "open",
    version: 1,
    ship_to: address(o.ship_to),
    bill_to: o.bill_to ? address(o.bill_to) : null,
    customer: { name: null, email: null, phone: null, ...o.customer },
    lines: o.lines.map((l) => ({ name: null, ...l, quantity_shipped: 0, quantity_returned: 0 })),
    shipments: [],
    created_at: now,
    updated_at: now,
  };
}

let seq = 0;
const started = performance.now();
for (let b = 0; b < batches; b++) {
  const rows = Array.from({ length: size }, (_, i) => {
    const body = stored(`base-r${b}-o${i}`, ++seq);
    return {
      account_id: "acc_bench",
      id: body.id,
      external_id: body.external_id,
      status: body.status,
      source: body.source,
      feed_seq: seq,
      updated_at: body.updated_at,
      body,
    };
  });
  await sql`insert into baseline_orders ${sql(rows)}`;
}
const ms = performance.now() - started;
const [count] = await sql<{ n: string }[]>`select count(*) n from baseline_orders`;
const [sample] = await sql<{ t: string }[]>`select jsonb_typeof(body) t from baseline_orders limit 1`;
await sql.end();
console.log(JSON.stringify({ ms, rows: Number(count?.n), bodyType: sample?.t }));
