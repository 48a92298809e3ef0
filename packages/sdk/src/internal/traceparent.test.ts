import { afterEach, describe, expect, it } from "vitest";
import { activeTraceparent } from "./traceparent.ts";

// A stand-in for what @opentelemetry/api v1 registers: its globals under this symbol, the active
// span in the context under Symbol.for("OpenTelemetry Context Key SPAN").
const OTEL_API = Symbol.for("opentelemetry.js.api.1");
const SPAN_KEY = Symbol.for("OpenTelemetry Context Key SPAN");
const globals = globalThis as { [OTEL_API]?: unknown };

function registerFakeOtel(spanContext: { traceId: string; spanId: string; traceFlags: number } | undefined) {
  const values = new Map<symbol, unknown>(
    spanContext ? [[SPAN_KEY, { spanContext: () => spanContext }]] : [],
  );
  globals[OTEL_API] = {
    version: "1.9.0",
    context: { active: () => ({ getValue: (k: symbol) => values.get(k) }) },
  };
}

afterEach(() => {
  delete globals[OTEL_API];
});

describe("activeTraceparent", () => {
  const traceId = "4bf92f3577b34da6a3ce929d0e0e4736";
  const spanId = "00f067aa0ba902b7";

  it("formats the active span of a registered OpenTelemetry API as a W3C traceparent", () => {
    registerFakeOtel({ traceId, spanId, traceFlags: 1 });
    expect(activeTraceparent()).toBe(`00-${traceId}-${spanId}-01`);
  });

  it.each([
    [0, "00"],
    [3, "03"],
    [0xab, "ab"],
  ])("writes trace flags %i as two hex digits (%s)", (traceFlags, hex) => {
    registerFakeOtel({ traceId, spanId, traceFlags });
    expect(activeTraceparent()).toBe(`00-${traceId}-${spanId}-${hex}`);
  });

  it("gives nothing without OpenTelemetry, without a context manager or without an active span", () => {
    expect(activeTraceparent()).toBeUndefined();
    globals[OTEL_API] = { version: "1.9.0" };
    expect(activeTraceparent()).toBeUndefined();
    registerFakeOtel(undefined);
    expect(activeTraceparent()).toBeUndefined();
  });

  it.each([
    ["an all-zero trace id (OTel's invalid span context)", "0".repeat(32), spanId],
    ["an all-zero span id", traceId, "0".repeat(16)],
    ["a short trace id", traceId.slice(1), spanId],
    ["a non-hex span id", traceId, "00f067aa0ba902bz"],
  ])("gives nothing for %s", (_what, badTraceId, badSpanId) => {
    registerFakeOtel({ traceId: badTraceId, spanId: badSpanId, traceFlags: 1 });
    expect(activeTraceparent()).toBeUndefined();
  });

  it("gives nothing, instead of failing the call, when the globals have another shape", () => {
    globals[OTEL_API] = {
      context: {
        active: () => {
          throw new Error("not a context manager");
        },
      },
    };
    expect(activeTraceparent()).toBeUndefined();
  });
});
