// Shared fixtures of the client tests (not exported from the package).
import { createClient } from "../client.ts";
import type {
  DispositionInput,
  InventorySnapshotInput,
  OrderInput,
  RequestRecord,
  ReturnInput,
  ShipmentInput,
} from "../types.ts";
import { fakeApi, json } from "./test-utils.ts";

export const BASE = "https://api.test/v2";
export const REQUEST_ID = "0193a0b8-0000-7000-8000-000000000001";
export const ack = json(
  { message: "Accepted", request_id: REQUEST_ID, trace_id: "0af7651916cd43dd8448eb211c80319c" },
  202,
  {
    location: `/v2/requests/${REQUEST_ID}`,
    "retry-after": "1",
  },
);
export const order: OrderInput = {
  external_id: "A-1",
  source: "shopify",
  currency: "EUR",
  placed_at: "2025-01-01T12:00:00Z",
  source_updated_at: "2025-01-01T12:00:00Z",
  ship_to: { name: "Ada Lovelace", line1: "1 Main St", city: "Berlin", country: "DE" },
  lines: [{ line_id: "1", sku: "SKU-1", quantity: 2, unit_price: "19.99" }],
};
export const snapshot: InventorySnapshotInput = {
  location_id: "WH-1",
  as_of: "2025-01-01T12:00:00Z",
  mode: "partial",
  items: [{ sku: "SKU-1", on_hand: 3, available: 3 }],
};
export const shipment: ShipmentInput = {
  external_id: "S-1",
  order_id: "A-1",
  carrier: "dhl",
  shipped_at: "2025-01-02T08:00:00Z",
  lines: [{ line_id: "1", quantity: 2 }],
};
export const ret: ReturnInput = {
  external_id: "RMA-1",
  order_id: "A-1",
  requested_at: "2025-01-03T09:00:00Z",
  source_updated_at: "2025-01-03T09:00:00Z",
  items: [{ line_id: "1", quantity: 1, reason_code: "size_or_fit" }],
};
export const disposition: DispositionInput = {
  line_id: "1",
  quantity: 1,
  outcome: "restock",
  decided_at: "2025-01-05T10:00:00Z",
};
export const record = (status: RequestRecord["status"], extra: Partial<RequestRecord> = {}) =>
  json({
    request_id: REQUEST_ID,
    kind: "orders",
    status,
    trace_id: "0af7651916cd43dd8448eb211c80319c",
    idempotency_key: null,
    item_count: 1,
    accepted_at: "2025-01-01T12:00:00Z",
    started_at: null,
    completed_at: null,
    attempts: status === "pending" ? 0 : 1,
    result: null,
    errors: [],
    error: null,
    ...extra,
  });

export function client(
  routes: Parameters<typeof fakeApi>[0],
  options: { maxRetries?: number; throttle?: boolean } = {},
) {
  const api = fakeApi(routes);
  return {
    client: createClient({ baseUrl: BASE, token: "oisr_test", fetch: api.fetch, ...options }),
    calls: api.calls,
  };
}
