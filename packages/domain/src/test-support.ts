// Shared fixtures for the unit tests (not part of the public API).

import { disposition, snapshot as exampleSnapshot, order, returnOf, shipment } from "@oisr/contract/fixtures";
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
import type { ApplyResult, DomainContext, IngestKind, ResourceIdPrefix } from "./model.ts";
import type { BatchParams } from "./referenced-keys.ts";

export const NOW = "2025-01-10T12:00:00Z";

/** Ids count up per prefix (`ord_1`, `ord_2`…) so expectations can name them. */
export function testContext(now = NOW): DomainContext {
  const counters = new Map<ResourceIdPrefix, number>();
  return {
    now,
    newId: (prefix) => {
      const n = (counters.get(prefix) ?? 0) + 1;
      counters.set(prefix, n);
      return `${prefix}_${n}`;
    },
  };
}

// Bodies: the shared fixtures (@oisr/contract/fixtures, the spec's examples with lines L1 × 2 and
// L2 × 1 and caller timestamps on its timeline `at(minutes)`), with the ids the expectations here
// name pinned: order SO-1, shipment SH-1, return RMA-1, location WH-1. Snapshots are partial (the
// mode an absent `mode` means) unless a test says full: the example's nightly count is full.

export function orderInput(overrides: Partial<OrderInput> = {}): OrderInput {
  return order({ external_id: "SO-1", ...overrides });
}

export function shipmentInput(overrides: Partial<ShipmentInput> = {}): ShipmentInput {
  return shipment("SO-1", { external_id: "SH-1", ...overrides });
}

export function returnInput(overrides: Partial<ReturnInput> = {}): ReturnInput {
  return returnOf("SO-1", { external_id: "RMA-1", ...overrides });
}

export function dispositionInput(overrides: Partial<DispositionInput> = {}): DispositionInput {
  return disposition("L1", 1, overrides);
}

export function snapshot(overrides: Partial<InventorySnapshotInput> = {}): InventorySnapshotInput {
  return exampleSnapshot({ location_id: "WH-1", mode: "partial", ...overrides });
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
