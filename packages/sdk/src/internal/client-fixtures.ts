// Shared fixtures of the client tests (not exported from the package).
import * as fixtures from "@oisr/contract/fixtures";
import { createClient } from "../client.ts";
import type { RequestRecord } from "../types.ts";
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
// Request bodies: the shared fixtures (the spec's examples), one of each for the whole module.
export const order = fixtures.order();
export const snapshot = fixtures.snapshot();
export const shipment = fixtures.shipment(order.external_id);
export const ret = fixtures.returnOf(order.external_id);
export const disposition = fixtures.disposition("L1", 1);
export const record = (status: RequestRecord["status"], extra: Partial<RequestRecord> = {}) =>
  json({
    request_id: REQUEST_ID,
    api_key_id: null,
    kind: "orders",
    status,
    trace_id: "0af7651916cd43dd8448eb211c80319c",
    idempotency_key: null,
    item_count: 1,
    accepted_at: "2025-01-01T12:00:00Z",
    started_at: null,
    completed_at: null,
    attempts: status === "pending" ? 0 : 1,
    retry_of: null,
    retried_by: null,
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
