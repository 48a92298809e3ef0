// The orders the benchmarks send: the shared fixture (the spec's example order #1042, every
// optional member set, as a shop would send it) with the external id and updated-at a bench picks.
import * as fixtures from "@oisr/contract/fixtures";

export function order(externalId: string, updatedAt?: string): fixtures.OrderInput {
  return fixtures.order({ external_id: externalId, ...(updatedAt ? { source_updated_at: updatedAt } : {}) });
}
