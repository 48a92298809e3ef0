// The closed lists the filters offer, typed against the SDK's (the spec's) unions: a value the
// spec drops is a compile error here; one it adds is a missing option, caught by `satisfies`'
// exhaustiveness check below.
import type { RequestKind, RequestStatus, WebhookEventType } from "@oisr/sdk";

type Exhaustive<T extends string, L extends readonly T[]> = [T] extends [L[number]] ? L : never;

const statuses = ["pending", "processing", "succeeded", "failed", "dead"] as const;
export const REQUEST_STATUSES: Exhaustive<RequestStatus, typeof statuses> = statuses;

const kinds = ["orders", "inventory", "shipments", "returns", "dispositions"] as const;
export const REQUEST_KINDS: Exhaustive<RequestKind, typeof kinds> = kinds;

const eventTypes = [
  "return.created",
  "return.updated",
  "return.disposition.created",
  "return.completed",
  "return.cancelled",
  "request.succeeded",
  "request.failed",
  "request.dead",
] as const;
export const EVENT_TYPES: Exhaustive<WebhookEventType, typeof eventTypes> = eventTypes;

export function isOneOf<T extends string>(list: readonly T[], value: string | null): value is T {
  return value !== null && (list as readonly string[]).includes(value);
}
