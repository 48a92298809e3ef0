// W3C trace context: the caller's trace id when its traceparent is valid, else a new one.
import { newTraceId, parseTraceparent } from "@oisr/contract";

export function traceIdFrom(header: string | null): string {
  return parseTraceparent(header)?.traceId ?? newTraceId();
}
