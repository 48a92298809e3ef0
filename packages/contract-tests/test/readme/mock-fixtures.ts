// The fixtures @oisr/mock-server's README leaves to the reader, `order(id, overrides?)` and
// `shipmentOf(orderId)`, as globals for its blocks that run: run.test.ts makes this the setup
// file of the vitest it runs them with. Valid bodies per the spec's OrderInput and ShipmentInput;
// the order's `source_updated_at` is before the README's cancellation (2025-03-16).
import type { OrderInput, ShipmentInput } from "@oisr/sdk";

function order(externalId: string, overrides: Partial<OrderInput> = {}): OrderInput {
  return {
    external_id: externalId,
    source: "shopify",
    currency: "EUR",
    placed_at: "2025-03-01T10:00:00Z",
    source_updated_at: "2025-03-15T00:00:00Z",
    ship_to: { name: "Ada Lovelace", line1: "1 Main St", city: "Berlin", country: "DE" },
    lines: [{ line_id: "1", sku: "TSHIRT-M", quantity: 2, unit_price: "19.99" }],
    ...overrides,
  };
}

function shipmentOf(orderId: string): ShipmentInput {
  return {
    external_id: `S-${orderId}`,
    order_id: orderId,
    carrier: "UPS",
    shipped_at: "2025-03-15T10:00:00Z",
    lines: [{ line_id: "1", quantity: 1 }],
  };
}

Object.assign(globalThis, { order, shipmentOf });
