// The data the mock page starts with, made through the API (the SDK against the mock) so that it
// is what a real account shows: orders and returns, a request rejected by the business rules (a
// return quantity above the ordered one), a dead request, a webhook subscription whose first
// deliveries failed, and events.
import type { MockWorker } from "@oisr/mock-server/browser";
import { createClient, type OrderInput } from "@oisr/sdk";
import { setReceiverDown } from "./receiver.ts";

export const DEMO_RECEIVER_URL = "https://receiver.example.com/webhooks/oisr";

function order(n: number): OrderInput {
  const at = new Date(Date.now() - (10 - n) * 3_600_000).toISOString();
  return {
    external_id: `SO-${1000 + n}`,
    source: "web",
    currency: "EUR",
    placed_at: at,
    source_updated_at: at,
    customer: { name: `Customer ${n}`, email: `customer${n}@example.com` },
    ship_to: { name: `Customer ${n}`, line1: `${n} Main St`, city: "Berlin", country: "DE" },
    lines: [
      { line_id: "1", sku: "TSHIRT-M", quantity: 2, unit_price: "19.99" },
      { line_id: "2", sku: "MUG", quantity: 1, unit_price: "9.50" },
    ],
  };
}

export async function seed(api: MockWorker, token: string): Promise<void> {
  const client = createClient({ baseUrl: api.baseUrl, token, logLevel: "error" });
  setReceiverDown(true);
  await client.webhooks.create({
    url: DEMO_RECEIVER_URL,
    events: ["return.created", "return.updated", "request.failed", "request.dead"],
    description: "The mock page's receiver (answers 503 until the page has started)",
  });
  await client.orders.ingestAndWait([1, 2, 3, 4, 5].map(order));
  const now = new Date().toISOString();
  await client.returns.ingestAndWait([
    {
      external_id: "RMA-2001",
      order_id: "SO-1001",
      reason: "Too small",
      requested_at: now,
      source_updated_at: now,
      items: [{ line_id: "1", sku: "TSHIRT-M", quantity: 1, reason_code: "size_or_fit" }],
    },
  ]);
  // Rejected by the rules: 5 returned of 2 ordered (errors at /returns/0/items/0/quantity).
  await client.returns.ingest([
    {
      external_id: "RMA-2002",
      order_id: "SO-1002",
      requested_at: now,
      source_updated_at: now,
      items: [{ line_id: "1", sku: "TSHIRT-M", quantity: 5, reason_code: "damaged" }],
    },
  ]);
  // Dead: every attempt fails transiently (the mock's failNext scenario).
  api.controls.failNext("dead", { token, kind: "orders" });
  await client.orders.ingest([order(6)]);
  await api.controls.flush();
  setReceiverDown(false);
}
