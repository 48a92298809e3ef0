// The request lifecycle's vocabulary: one constant each, also the database's CHECK constraints.
// accepted → pending → processing → succeeded | failed | dead; retries stay inside processing.
import type { IngestKind } from "@oisr/domain";

export const REQUEST_KINDS = [
  "orders",
  "inventory",
  "shipments",
  "returns",
  "dispositions",
] as const satisfies readonly IngestKind[];
export type RequestKind = (typeof REQUEST_KINDS)[number];

export const REQUEST_STATUSES = ["pending", "processing", "succeeded", "failed", "dead"] as const;
export type RequestStatus = (typeof REQUEST_STATUSES)[number];

/** Statuses of requests still in the queue. */
export const OPEN_STATUSES = ["pending", "processing"] as const satisfies readonly RequestStatus[];
