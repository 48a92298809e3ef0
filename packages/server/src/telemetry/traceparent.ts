// W3C traceparent text <-> span context. The text is what crosses process boundaries here: the
// incoming header, the column a queued request or an event keeps for the worker or dispatcher
// that picks it up later, and the header a webhook delivery sends.
import { deliveryTraceparent, parseTraceparent, traceOnlyTraceparent } from "@oisr/contract";
import { type Context, ROOT_CONTEXT, type SpanContext, trace } from "@opentelemetry/api";

export { type ParsedTraceparent, parseTraceparent } from "@oisr/contract";

/** The span context a stored or received traceparent names, as a remote parent. */
export function remoteSpanContext(traceparent: string | null | undefined): SpanContext | undefined {
  const parsed = parseTraceparent(traceparent);
  if (!parsed?.spanId) return undefined;
  return {
    traceId: parsed.traceId,
    spanId: parsed.spanId,
    traceFlags: parsed.traceFlags & 1,
    isRemote: true,
  };
}

/** A context whose parent is the stored traceparent; the root context when there is none. */
export function contextFrom(traceparent: string | null | undefined): Context {
  const parent = remoteSpanContext(traceparent);
  return parent ? trace.setSpanContext(ROOT_CONTEXT, parent) : ROOT_CONTEXT;
}

/**
 * What an event keeps (events.traceparent) for its deliveries, the one rule for every writer of
 * events. Tracing on: the span of the transaction that wrote it, which each delivery span
 * continues. Tracing off: the trace id of the request whose apply wrote it (its `trace_id`,
 * `X-Trace-Id`) with an all-zero parent id, as no span exists to be a parent; parseTraceparent
 * reads that as a trace id alone, so it never becomes a span's parent. Stored only, never sent.
 */
export function eventTraceparent(
  spanTraceparent: string | null | undefined,
  requestTraceId: string,
): string | null {
  return spanTraceparent || traceOnlyTraceparent(requestTraceId);
}

/**
 * The `traceparent` a delivery attempt sends when tracing is off (docs/product.md §10: every
 * delivery carries one): the stored trace id (a new one for an event without any), a fresh span
 * id per attempt, and flags 00, as this process records nothing. The mock sends the same.
 */
export function untracedDeliveryTraceparent(stored: string | null | undefined): string {
  return deliveryTraceparent(parseTraceparent(stored)?.traceId);
}

/** Version-00 traceparent of a span context (sampled flag only, as W3C level 1 defines). */
export function formatTraceparent(spanContext: SpanContext): string {
  return `00-${spanContext.traceId}-${spanContext.spanId}-0${spanContext.traceFlags & 1}`;
}
