// The fixtures @oisr/mock-server's README leaves to the reader, `order(id, overrides?)` and
// `shipmentOf(orderId)`, as globals for its blocks that run: run.test.ts makes this the setup
// file of the vitest it runs them with. The shared fixtures (the spec's examples); the order's
// `source_updated_at` is before the README's cancellation (2025-03-16).
import * as fixtures from "@oisr/contract/fixtures";
import type { OrderInput, ShipmentInput } from "@oisr/sdk";

function order(externalId: string, overrides: Partial<OrderInput> = {}): OrderInput {
  return fixtures.order({ external_id: externalId, ...overrides });
}

function shipmentOf(orderId: string): ShipmentInput {
  return fixtures.shipment(orderId, { external_id: `S-${orderId}` });
}

Object.assign(globalThis, { order, shipmentOf });
