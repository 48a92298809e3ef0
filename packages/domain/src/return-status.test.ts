import { describe, expect, it } from "vitest";
import type { ReturnStatus } from "./model.ts";
import { canTransition } from "./return-status.ts";

const ALL: ReturnStatus[] = [
  "requested",
  "approved",
  "rejected",
  "cancelled",
  "in_transit",
  "received",
  "completed",
];

// The spec's ReturnStatus (docs/product.md §5.2); `completed` is only reached through dispositions, never by the caller.
const ALLOWED: Record<ReturnStatus, ReturnStatus[]> = {
  requested: ["approved", "rejected", "cancelled"],
  approved: ["in_transit", "received", "cancelled"],
  in_transit: ["received"],
  received: [],
  completed: [],
  rejected: [],
  cancelled: [],
};

describe("canTransition (caller-driven return status changes)", () => {
  const cases = ALL.flatMap((from) =>
    ALL.map((to) => [from, to, from === to || ALLOWED[from].includes(to)] as const),
  );
  it.each(cases)("%s → %s allowed: %s", (from, to, allowed) => {
    expect(canTransition(from, to)).toBe(allowed);
  });
});
