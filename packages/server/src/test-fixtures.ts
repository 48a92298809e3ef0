// Minimal valid ingest items shared by the server's own tests (not used by the server itself).

/** One order with one line of quantity 2, the smallest the spec accepts. */
export function order(externalId: string, extra: Record<string, unknown> = {}) {
  return {
    external_id: externalId,
    source: "shopify",
    currency: "EUR",
    placed_at: "2025-03-01T10:00:00Z",
    source_updated_at: "2025-03-01T10:00:00Z",
    ship_to: { name: "Ada Lovelace", line1: "1 Main St", city: "Berlin", country: "DE" },
    lines: [{ line_id: "1", sku: "SKU-1", quantity: 2, unit_price: "19.99" }],
    ...extra,
  };
}
