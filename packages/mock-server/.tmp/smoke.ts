import { createMock } from "../src/index.ts";
const mock = createMock();
const T = "oisr_abc";
const call = async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
  const res = await mock.handle(new Request(`${mock.baseUrl}${path}`, { method, headers: { authorization: `Bearer ${T}`, ...(body !== undefined ? { "content-type": "application/json" } : {}), ...headers }, body: body === undefined ? undefined : JSON.stringify(body) }));
  const text = await res!.text();
  return { status: res!.status, headers: Object.fromEntries(res!.headers), body: text ? JSON.parse(text) : undefined };
};
const order = { external_id: "A", source: "shopify", currency: "EUR", placed_at: "2025-03-01T10:00:00Z", source_updated_at: "2025-03-01T10:00:00Z", ship_to: { name: "Ada", line1: "1 Main St", city: "Berlin", country: "DE" }, lines: [{ line_id: "1", sku: "SKU-1", quantity: 2, unit_price: "19.99" }] };
const a = await call("POST", "/ingest/orders", { orders: [order] });
console.log(a);
console.log((await call("GET", `/requests/${a.body.request_id}`)).body);
await new Promise((r) => setTimeout(r, 10));
console.log((await call("GET", `/requests/${a.body.request_id}`)).body);
console.log(JSON.stringify((await call("GET", `/orders`)).body).slice(0, 300));
console.log((await call("GET", `/orders?limit=abc`)).body);
console.log((await call("POST", `/ingest/orders`, { orders: [] })).body);
console.log((await call("DELETE", `/orders`)).headers);
