// W3C trace context (traceparent), the parts the server and the mock both need: reading a
// caller's header, and the header a webhook delivery sends when no tracer records the attempt.
// The server's OpenTelemetry side (spans, contexts) stays in the server (telemetry/).

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
  const match = TRACEPARENT.exec(header.trim().toLowerCase());
  if (!match) return undefined;
  const [, version, traceId, spanId, flags] = match as unknown as [string, string, string, string, string];
  if (version === "ff" || traceId === ZERO_TRACE) return undefined;
  return {
    traceId,
    spanId: spanId === ZERO_SPAN ? undefined : spanId,
    traceFlags: Number.parseInt(flags, 16),
  };
}

function randomHex(bytes: number): string {
  const buffer = crypto.getRandomValues(new Uint8Array(bytes));
  let out = "";
  for (const b of buffer) out += b.toString(16).padStart(2, "0");
  return out;
}

/** A new trace id: 16 random bytes (never all zeros in practice; W3C reserves that value). */
export const newTraceId = (): string => {
  for (;;) {
    const id = randomHex(16);
    if (id !== ZERO_TRACE) return id;
  }
};

function newSpanId(): string {
  for (;;) {
    const id = randomHex(8);
    if (id !== ZERO_SPAN) return id;
  }
}

/**
 * A trace id kept without a parent span (all-zero parent id): what a stored event holds when no
 * span wrote it. parseTraceparent reads it as a trace id alone, so it never becomes a span's parent.
 */
export function traceOnlyTraceparent(traceId: string): string | null {
  const parsed = parseTraceparent(`00-${traceId}-${ZERO_SPAN}-00`);
  return parsed ? `00-${parsed.traceId}-${ZERO_SPAN}-00` : null;
}

/**
 * The `traceparent` a webhook delivery attempt sends when no tracer records it (docs/product.md
 * §10: every delivery carries one), so a receiver can tie it to the call that caused the event:
 * that call's trace id (a new one when there is none), a fresh span id per attempt, flags 00.
 */
export function deliveryTraceparent(traceId: string | null | undefined): string {
  const known = traceId ? parseTraceparent(`00-${traceId}-${ZERO_SPAN}-00`)?.traceId : undefined;
  return `00-${known ?? newTraceId()}-${newSpanId()}-00`;
}
