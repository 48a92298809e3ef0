// W3C traceparent text <-> span context. The text is what crosses process boundaries here: the
// incoming header, the column a queued request or an event keeps for the worker or dispatcher
// that picks it up later, and the header a webhook delivery sends.
import { randomBytes } from "node:crypto";
import { type Context, ROOT_CONTEXT, type SpanContext, trace } from "@opentelemetry/api";

const TRACEPARENT = /^([\da-f]{2})-([\da-f]{32})-([\da-f]{16})-([\da-f]{2})$/;
const ZERO_TRACE = "0".repeat(32);
const ZERO_SPAN = "0".repeat(16);

export interface ParsedTraceparent {
  traceId: string;
  /** Undefined when the parent id is all zeros: the trace id is usable, the parent is not. */
  spanId: string | undefined;
  traceFlags: number;
}

/**
 * Reads a traceparent as the API always has: four fields, case and surrounding blanks forgiven,
 * version ff and an all-zero trace id refused.
 */
export function parseTraceparent(header: string | null | undefined): ParsedTraceparent | undefined {
  if (!header) return undefined;
  const text = header.trim().toLowerCase();
  const match = TRACEPARENT.exec(text);
  if (!match) return undefined;
  const [, version, traceId, spanId, flags] = match as unknown as [string, string, string, string, string];
  if (version === "ff" || traceId === ZERO_TRACE) return undefined;
  return {
    traceId,
    spanId: spanId === ZERO_SPAN ? undefined : spanId,
    traceFlags: Number.parseInt(flags, 16),
  };
}

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
  if (spanTraceparent) return spanTraceparent;
  const traceId = parseTraceparent(`00-${requestTraceId}-${ZERO_SPAN}-00`)?.traceId;
  return traceId ? `00-${traceId}-${ZERO_SPAN}-00` : null;
}

/** A span id: 8 random bytes, never all zeros (which W3C reserves as invalid). */
function newSpanId(): string {
  for (;;) {
    const id = randomBytes(8).toString("hex");
    if (id !== ZERO_SPAN) return id;
  }
}

/**
 * The `traceparent` a delivery attempt sends when tracing is off (CONTRACT section 10: every
 * delivery carries one), so a receiver can still tie it to the call that caused it: the stored
 * trace id (a new one for an event without any, such as a test event), a fresh span id per
 * attempt, and flags 00, as this process records nothing.
 */
export function untracedDeliveryTraceparent(stored: string | null | undefined): string {
  const traceId = parseTraceparent(stored)?.traceId ?? randomBytes(16).toString("hex");
  return `00-${traceId}-${newSpanId()}-00`;
}

/** Version-00 traceparent of a span context (sampled flag only, as W3C level 1 defines). */
export function formatTraceparent(spanContext: SpanContext): string {
  return `00-${spanContext.traceId}-${spanContext.spanId}-0${spanContext.traceFlags & 1}`;
}
