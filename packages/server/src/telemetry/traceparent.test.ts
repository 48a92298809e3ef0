import { ROOT_CONTEXT, trace } from "@opentelemetry/api";
import { describe, expect, it } from "vitest";
import { contextFrom, formatTraceparent, parseTraceparent, remoteSpanContext } from "./traceparent.ts";

const TRACE = "4bf92f3577b34da6a3ce929d0e0e4736";
const SPAN = "00f067aa0ba902b7";

describe("traceparent", () => {
  it.each([
    [`00-${TRACE}-${SPAN}-01`, { traceId: TRACE, spanId: SPAN, traceFlags: 1 }],
    [`  00-${TRACE.toUpperCase()}-${SPAN}-00 `, { traceId: TRACE, spanId: SPAN, traceFlags: 0 }],
    // A usable trace id without a usable parent: the API still answers with the caller's trace id.
    [`00-${TRACE}-${"0".repeat(16)}-01`, { traceId: TRACE, spanId: undefined, traceFlags: 1 }],
  ])("reads %j", (header, parsed) => {
    expect(parseTraceparent(header)).toEqual(parsed);
  });

  it.each([
    undefined,
    "",
    "garbage",
    `ff-${TRACE}-${SPAN}-01`,
    `00-${"0".repeat(32)}-${SPAN}-01`,
    `00-${TRACE.slice(16)}-${SPAN}-01`,
    `00-${TRACE}-${SPAN}-01-extra`,
  ])("ignores %j", (header) => {
    expect(parseTraceparent(header)).toBeUndefined();
  });

  it("round-trips a span context through the stored text", () => {
    const text = formatTraceparent({ traceId: TRACE, spanId: SPAN, traceFlags: 1 });
    expect(text).toBe(`00-${TRACE}-${SPAN}-01`);
    expect(remoteSpanContext(text)).toEqual({ traceId: TRACE, spanId: SPAN, traceFlags: 1, isRemote: true });
    expect(trace.getSpanContext(contextFrom(text))).toEqual(remoteSpanContext(text));
  });

  it("a missing or unusable stored value gives no parent", () => {
    expect(contextFrom(null)).toBe(ROOT_CONTEXT);
    expect(contextFrom(`00-${TRACE}-${"0".repeat(16)}-01`)).toBe(ROOT_CONTEXT);
  });
});
