// Public API of @oisr/domain: pure business rules, (state, batch) -> (changes, events, errors).

export { applyBatch, itemCount } from "./apply-batch.ts";
export {
  applyChain,
  applyChainSteps,
  type ChainedRequest,
  type ChainResult,
  withChanges,
} from "./apply-chain.ts";
export { compareTimestamps } from "./compare.ts";
export { deriveOrderStatus, isActiveReturn } from "./derive.ts";
export { applyDispositions } from "./dispositions.ts";
export type * from "./input.ts";
export { applyInventory } from "./inventory.ts";
export { MemoryState } from "./memory-state.ts";
export type * from "./model.ts";
export { ITEM_ERROR_CODES } from "./model.ts";
export { applyOrders } from "./orders.ts";
export type { BatchParams, InventoryKey, ReferencedKeys } from "./referenced-keys.ts";
export { mergeReferencedKeys, referencedKeys } from "./referenced-keys.ts";
export { canTransition as canTransitionReturn } from "./return-status.ts";
export { applyReturns } from "./returns.ts";
export { applyShipments } from "./shipments.ts";
export type { StateView } from "./state.ts";
export { resolveOrder, resolveReturn } from "./state.ts";
