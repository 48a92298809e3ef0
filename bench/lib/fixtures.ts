// A realistic order, as a shop would send it.
export function order(externalId: string, updatedAt = "2026-11-20T10:00:00Z") {
  return {
    external_id: externalId,
    order_number: `#${externalId}`,
    source: "shopify",
    currency: "EUR",
    placed_at: "2026-11-20T09:58:00Z",
    source_updated_at: updatedAt,
    customer: { name: "Ada Lovelace", email: "ada@example.com" },
    ship_to: {
      name: "Ada Lovelace",
      line1: "Unter den Linden 1",
      city: "Berlin",
      postal_code: "10117",
      country: "DE",
    },
    shipping_method: "standard",
    lines: [
      { line_id: "1", sku: "TSHIRT-BLK-M", name: "T-shirt black M", quantity: 2, unit_price: "19.99" },
      { line_id: "2", sku: "MUG-WHT", name: "Mug white", quantity: 1, unit_price: "9.50" },
    ],
    totals: { subtotal: "49.48", discount: "0.00", tax: "7.90", shipping: "4.90", total: "62.28" },
    metadata: { channel: "web" },
  };
}
