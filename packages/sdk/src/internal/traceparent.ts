/**
 * The caller's active OpenTelemetry span as a W3C `traceparent`, without depending on
 * `@opentelemetry/api`: every copy of the API (v1.x) registers its globals under this symbol
 * (`{ version, context?, trace?, propagation?, … }`, see its `internal/global-utils`), and keys
 * context values with `Symbol.for(description)` (its `createContextKey`), so both can be read
 * from here. Works with any context manager (AsyncLocalStorage in Node, Zone.js in browsers).
 */
const OTEL_API = Symbol.for("opentelemetry.js.api.1");
const SPAN_KEY = Symbol.for("OpenTelemetry Context Key SPAN");

interface SpanContextLike {
  traceId: string;
  spanId: string;
  traceFlags: number;
}

interface OtelGlobals {
  context?: { active(): { getValue(key: symbol): unknown } };
}

export function activeTraceparent(): string | undefined {
  try {
    const api = (globalThis as { [OTEL_API]?: OtelGlobals })[OTEL_API];
    const span = api?.context?.active().getValue(SPAN_KEY) as { spanContext(): SpanContextLike } | undefined;
    const sc = span?.spanContext();
    // `256 |` keeps the leading zero of the two hex digits of the flags.
    const header = sc && `00-${sc.traceId}-${sc.spanId}-${(256 | sc.traceFlags).toString(16).slice(1)}`;
    // All-zero ids are OTel's "no span" (a non-recording span around INVALID_SPAN_CONTEXT).
    if (header && /^00-(?!0{32})[\da-f]{32}-(?!0{16})[\da-f]{16}-[\da-f]{2}$/.test(header)) return header;
  } catch {
    // Someone else's globals in an unexpected shape: no traceparent rather than a failed call.
  }
  return undefined;
}
