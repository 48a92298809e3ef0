import { describe, expect, it } from "vitest";
import { deliveryTraceparent, newTraceId, parseTraceparent, traceOnlyTraceparent } from "./trace-context.ts";

const TRACE = "4bf92f3577b34da6a3ce929d0e0e4736";

describe("parseTraceparent", () => {
  it.each([
    [`00-${TRACE}-00f067aa0ba902b7-01`, { traceId: TRACE, spanId: "00f067aa0ba902b7", traceFlags: 1 }],
    [
      `  00-${TRACE.toUpperCase()}-00f067aa0ba902b7-00 `,
      { traceId: TRACE, spanId: "00f067aa0ba902b7", traceFlags: 0 },
    ],
    [`00-${TRACE}-0000000000000000-00`, { traceId: TRACE, spanId: undefined, traceFlags: 0 }],
  ])("reads %j", (header, parsed) => {
    expect(parseTraceparent(header)).toEqual(parsed);
  });

  it.each([
    undefined,
    null,
    "",
    "garbage",
    `ff-${TRACE}-00f067aa0ba902b7-01`,
    `00-${"0".repeat(32)}-00f067aa0ba902b7-01`,
  ])("refuses %j", (header) => {
    expect(parseTraceparent(header)).toBeUndefined();
  });
});

describe("deliveryTraceparent", () => {
  it("keeps the causing call's trace id, with a fresh span id per attempt and flags 00", () => {
    const [a, b] = [deliveryTraceparent(TRACE), deliveryTraceparent(TRACE)];
    expect(parseTraceparent(a)).toMatchObject({ traceId: TRACE, traceFlags: 0, spanId: expect.any(String) });
    expect(parseTraceparent(a)?.spanId).not.toBe(parseTraceparent(b)?.spanId);
  });

  it("starts a new trace when the cause has none (or an invalid one)", () => {
    for (const cause of [undefined, null, "not-a-trace-id"]) {
      const parsed = parseTraceparent(deliveryTraceparent(cause));
      expect(parsed?.traceId).toMatch(/^[\da-f]{32}$/);
      expect(parsed?.traceId).not.toBe(TRACE);
    }
    expect(newTraceId()).not.toBe(newTraceId());
  });
});

describe("traceOnlyTraceparent", () => {
  it("keeps a trace id with no parent span, and refuses what is not one", () => {
    expect(parseTraceparent(traceOnlyTraceparent(TRACE))).toEqual({
      traceId: TRACE,
      spanId: undefined,
      traceFlags: 0,
    });
    expect(traceOnlyTraceparent("xyz")).toBeNull();
  });
});
