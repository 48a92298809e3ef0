// The real @opentelemetry/api (a devDependency only): the globals traceparent.ts reads without
// depending on it must be where, and shaped as, the API keeps them.
import {
  type Context,
  type ContextManager,
  context,
  INVALID_SPAN_CONTEXT,
  ROOT_CONTEXT,
  trace,
} from "@opentelemetry/api";
import { afterEach, describe, expect, it } from "vitest";
import { activeTraceparent } from "./traceparent.ts";

/** A synchronous context manager, enough for `context.with` (the Node SDK's uses AsyncLocalStorage). */
class StackContextManager implements ContextManager {
  #stack: Context[] = [];
  active(): Context {
    return this.#stack.at(-1) ?? ROOT_CONTEXT;
  }
  with<A extends unknown[], F extends (...args: A) => ReturnType<F>>(
    ctx: Context,
    fn: F,
    thisArg?: ThisParameterType<F>,
    ...args: A
  ): ReturnType<F> {
    this.#stack.push(ctx);
    try {
      return fn.call(thisArg, ...args);
    } finally {
      this.#stack.pop();
    }
  }
  bind<T>(_ctx: Context, target: T): T {
    return target;
  }
  enable(): this {
    return this;
  }
  disable(): this {
    this.#stack = [];
    return this;
  }
}

afterEach(() => {
  context.disable();
});

describe("activeTraceparent with @opentelemetry/api", () => {
  it("reads the span made active through the API", () => {
    expect(context.setGlobalContextManager(new StackContextManager())).toBe(true);
    const span = trace.wrapSpanContext({
      traceId: "4bf92f3577b34da6a3ce929d0e0e4736",
      spanId: "00f067aa0ba902b7",
      traceFlags: 1,
    });
    const inside = context.with(trace.setSpan(context.active(), span), activeTraceparent);
    expect(inside).toBe("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01");
    expect(activeTraceparent()).toBeUndefined();
  });

  it("gives nothing for the API's invalid span context or without a context manager", () => {
    const invalid = trace.wrapSpanContext(INVALID_SPAN_CONTEXT);
    expect(context.with(trace.setSpan(ROOT_CONTEXT, invalid), activeTraceparent)).toBeUndefined();
    expect(context.setGlobalContextManager(new StackContextManager())).toBe(true);
    expect(context.with(trace.setSpan(ROOT_CONTEXT, invalid), activeTraceparent)).toBeUndefined();
  });
});
