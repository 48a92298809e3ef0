import { ROOT_CONTEXT, trace } from "@opentelemetry/api";
import { describe, expect, it } from "vitest";
import {
  contextFrom,
  eventTraceparent,
  formatTraceparent,
  parseTraceparent,
  remoteSpanContext,
  untracedDeliveryTraceparent,
} from "./traceparent.ts";

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

describe("the traceparent of events and of untraced deliveries", () => {
  const ZERO = "0".repeat(16);

  it("an event keeps the writing span's context with tracing on, else the request's trace id without a parent", () => {
    expect(eventTraceparent(`00-${TRACE}-${SPAN}-01`, "0af7651916cd43dd8448eb211c80319c")).toBe(
      `00-${TRACE}-${SPAN}-01`,
    );
    const off = eventTraceparent(undefined, TRACE);
    expect(off).toBe(`00-${TRACE}-${ZERO}-00`);
    // Stored for its trace id only: never a span's parent if tracing is turned on later.
    expect(contextFrom(off)).toBe(ROOT_CONTEXT);
    expect(eventTraceparent(null, "not-a-trace-id")).toBeNull();
  });

  it("an untraced attempt sends the stored trace id, a fresh non-zero span id each time, flags 00", () => {
    const sent = [0, 1, 2].map(() => untracedDeliveryTraceparent(`00-${TRACE}-${ZERO}-00`));
    for (const header of sent) {
      expect(header).toMatch(new RegExp(`^00-${TRACE}-[0-9a-f]{16}-00$`));
      expect(parseTraceparent(header)?.spanId).toBeDefined();
    }
    expect(new Set(sent).size).toBe(3);
    // A context stored by a span (tracing was on when the event was written) gives its trace id too.
    expect(untracedDeliveryTraceparent(`00-${TRACE}-${SPAN}-01`)).toMatch(new RegExp(`^00-${TRACE}-`));
  });

  it("an event without any stored context (a test event) gets a trace id of its own", () => {
    const [a, b] = [untracedDeliveryTraceparent(null), untracedDeliveryTraceparent(undefined)];
    expect(parseTraceparent(a)).toMatchObject({ traceFlags: 0, spanId: expect.any(String) });
    expect(parseTraceparent(a)?.traceId).not.toBe(parseTraceparent(b)?.traceId);
  });
});
