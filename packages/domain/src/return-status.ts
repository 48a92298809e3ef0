import type { ReturnStatus } from "./model.ts";

// `completed` is reachable only through dispositions, so no caller-driven move leads there.
const NEXT: Readonly<Record<ReturnStatus, ReadonlyArray<ReturnStatus>>> = {
  requested: ["approved", "rejected", "cancelled"],
  approved: ["in_transit", "received", "cancelled"],
  in_transit: ["received"],
  received: [],
  completed: [],
  rejected: [],
  cancelled: [],
};

/** Whether a caller may move a return from `from` to `to`; staying put is no transition. */
export function canTransition(from: ReturnStatus, to: ReturnStatus): boolean {
  return from === to || NEXT[from].includes(to);
}

/** Statuses in which the goods are back, so `received_at` must be set. */
export function isReceived(status: ReturnStatus): boolean {
  return status === "received" || status === "completed";
}
