// Baseline for the ingest acknowledgment benchmark: a bare Express 5 app that parses the JSON and,
// with BASELINE_INSERT=1, does one INSERT of the body per call into a table shaped like `requests`.
import { randomUUID } from "node:crypto";
import type { AddressInfo } from "node:net";
import express from "express";
import postgres from "postgres";

const insert = process.env.BASELINE_INSERT === "1";
const sql = insert
  ? postgres(process.env.DATABASE_URL as string, { max: 10, onnotice: () => {} })
  : undefined;
if (sql) {
  await sql`create table if not exists baseline_requests (
    account_id text not null, id uuid not null, seq bigserial, kind text not null, status text not null,
    trace_id text not null, idempotency_key text, body jsonb not null, item_count int not null,
    accepted_at timestamptz not null default now(), primary key (account_id, id))`;
}

const app = express();
app.use(express.json({ limit: "5mb" }));
app.post("/v2/ingest/orders", async (req, res) => {
  const id = randomUUID();
  if (sql) {
    await sql`insert into baseline_requests (account_id, id, kind, status, trace_id, body, item_count)
              values ('acc_bench', ${id}, 'orders', 'pending', 'trace', ${sql.json(req.body)}, ${req.body.orders.length})`;
  }
  res.status(202).json({ message: "Accepted for processing.", request_id: id, trace_id: "0".repeat(32) });
});
const server = app.listen(0, "127.0.0.1", () => {
  console.log(`API: http://127.0.0.1:${(server.address() as AddressInfo).port}/v2`);
});
process.on("SIGTERM", () => {
  server.close();
  void sql?.end();
  process.exit(0);
});
