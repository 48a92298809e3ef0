// Shared fixtures for the unit tests (not part of the public API).

import { applyBatch } from "./apply-batch.ts";
import type {
  DispositionInput,
  IngestBodies,
  InventorySnapshotInput,
  OrderInput,
  ReturnInput,
  ShipmentInput,
} from "./input.ts";
import { MemoryState } from "./memory-state.ts";
import type { ApplyResult, DomainContext, IdPrefix, IngestKind } from "./model.ts";
import type { BatchParams } from "./referenced-keys.ts";

export const NOW = "2025-01-10T12:00:00Z";

/** Ids count up per prefix (`ord_1`, `ord_2`…) so expectations can name them. */
export function testContext(now = NOW): DomainContext {
  const counters = new Map<IdPrefix, number>();
  return {
    now,
    newId: (prefix) => {
      const n = (counters.get(prefix) ?? 0) + 1;
      counters.set(prefix, n);
      return `${prefix}_${n}`;
    },
  };
}

export function orderInput(overrides: Partial<OrderInput> = {}): OrderInput {
  return {
    external_id: "SO-1",
    source: "shopify",
    currency: "EUR",
    placed_at: "2025-01-01T10:00:00Z",
    ship_to: { name: "Ada Lovelace", line1: "1 Analytical Row", city: "London", country: "GB" },
    lines: [
      { line_id: "L1", sku: "SKU-A", quantity: 2, unit_price: "10.00" },
      { line_id: "L2", sku: "SKU-B", quantity: 1, unit_price: "5.50" },
    ],
    source_updated_at: "2025-01-01T10:00:00Z",
    ...overrides,
  };
}

export function shipmentInput(overrides: Partial<ShipmentInput> = {}): ShipmentInput {
  return {
    external_id: "SH-1",
    order_id: "SO-1",
    carrier: "dhl",
    shipped_at: "2025-01-02T09:00:00Z",
    lines: [
      { line_id: "L1", quantity: 2 },
      { line_id: "L2", quantity: 1 },
    ],
    ...overrides,
  };
}

export function returnInput(overrides: Partial<ReturnInput> = {}): ReturnInput {
  return {
    external_id: "RMA-1",
    order_id: "SO-1",
    items: [{ line_id: "L1", quantity: 1, reason_code: "damaged" }],
    requested_at: "2025-01-05T08:00:00Z",
    source_updated_at: "2025-01-05T08:00:00Z",
    ...overrides,
  };
}

export function dispositionInput(overrides: Partial<DispositionInput> = {}): DispositionInput {
  return {
    line_id: "L1",
    quantity: 1,
    outcome: "restock",
    decided_at: "2025-01-08T15:00:00Z",
    ...overrides,
  };
}

export function snapshot(overrides: Partial<InventorySnapshotInput> = {}): InventorySnapshotInput {
  return {
    location_id: "WH-1",
    as_of: "2025-01-01T00:00:00Z",
    mode: "partial",
    items: [{ sku: "SKU-A", on_hand: 10, available: 8, reserved: 2 }],
    ...overrides,
  };
}

export type Succeeded = Extract<ApplyResult, { status: "succeeded" }>;
export type Failed = Extract<ApplyResult, { status: "failed" }>;

export function succeeded(result: ApplyResult): Succeeded {
  if (result.status !== "succeeded") {
    throw new Error(`expected success, got ${JSON.stringify(result.errors, null, 2)}`);
  }
  return result;
}

export function failedWith(result: ApplyResult): Failed {
  if (result.status !== "failed") throw new Error("expected the batch to fail");
  return result;
}

/**
 * A store plus a clock: requests are applied one after another, each committing its changes
 * when it succeeds, as the server does per request.
 */
export class Harness {
  readonly state = new MemoryState();
  readonly #ids = testContext();
  #requests = 0;

  run<K extends IngestKind>(kind: K, body: IngestBodies[K], params?: BatchParams): ApplyResult {
    this.#requests += 1;
    const ctx = { now: Harness.at(this.#requests), newId: this.#ids.newId };
    const result = applyBatch(kind, this.state, body, ctx, params);
    if (result.status === "succeeded") this.state.apply(result.changes);
    return result;
  }

  ok<K extends IngestKind>(kind: K, body: IngestBodies[K], params?: BatchParams): Succeeded {
    return succeeded(this.run(kind, body, params));
  }

  /** `now` of the n-th request a harness runs: one minute apart, so timestamps show who wrote. */
  static at(n: number): string {
    return new Date(Date.parse(NOW) + n * 60_000).toISOString();
  }
}
