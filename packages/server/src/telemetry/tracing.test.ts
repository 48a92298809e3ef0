// Tracing off costs nothing: no provider, no context manager, no span objects at the span sites.
import { context, ProxyTracerProvider, ROOT_CONTEXT, trace } from "@opentelemetry/api";
import pino from "pino";
import { afterEach, describe, expect, it } from "vitest";
import { startPublishSpan, startStageSpan } from "./queue-spans.ts";
import { telemetryConfig } from "./settings.ts";
import { activeTracer, startRootSpan, startTracing, type Tracing } from "./tracing.ts";
import { startDeliverySpan, startFanOutSpan } from "./webhook-spans.ts";

const logger = pino({ level: "silent" });
const delegate = () => (trace.getTracerProvider() as ProxyTracerProvider).getDelegate();
const noopDelegate = new ProxyTracerProvider().getDelegate();

let started: Tracing | undefined;
afterEach(async () => {
  await started?.shutdown();
  started = undefined;
});

describe("tracing", () => {
  it("without OTEL variables registers nothing, and every span site answers undefined", async () => {
    started = await startTracing(telemetryConfig({}), logger);
    expect(started).toBeUndefined();
    expect(activeTracer()).toBeUndefined();
    expect(delegate()).toBe(noopDelegate);
    expect(trace.getTracer("x").startSpan("y").isRecording()).toBe(false);
    // No context manager: nothing is carried across async calls.
    expect(
      context.with(
        trace.setSpan(
          ROOT_CONTEXT,
          trace.wrapSpanContext({ traceId: "1".repeat(32), spanId: "1".repeat(16), traceFlags: 1 }),
        ),
        () => context.active(),
      ),
    ).toBe(ROOT_CONTEXT);
    expect(startPublishSpan("orders", 10)).toBeUndefined();
    expect(startStageSpan("acct", [{ id: "r", kind: "orders", attempts: 1 }])).toBeUndefined();
    expect(startFanOutSpan([{ id: "evt" }])).toBeUndefined();
    expect(
      startDeliverySpan({
        url: "https://hooks.example.com/x",
        deliveryId: "whd",
        eventId: "evt",
        eventType: "return.created",
        subscriptionId: "whs",
        attempt: 1,
      }),
    ).toBeUndefined();
  });

  it("with an endpoint registers a provider, and unregisters it on shutdown", async () => {
    // Nothing listens there; nothing is recorded either, so nothing is sent.
    started = await startTracing(
      telemetryConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://127.0.0.1:9" }),
      logger,
    );
    expect(started).toBeDefined();
    expect(activeTracer()).toBeDefined();
    expect(delegate()).not.toBe(noopDelegate);
    const publish = startPublishSpan("orders", 10);
    expect(publish?.traceparent).toMatch(/^00-[\da-f]{32}-[\da-f]{16}-01$/);
    // A root span can take the trace id the API already answered with; the next one draws its own.
    const tracer = activeTracer() as NonNullable<ReturnType<typeof activeTracer>>;
    const trace0 = "4bf92f3577b34da6a3ce929d0e0e4736";
    expect(startRootSpan(tracer, "call", {}, trace0).spanContext().traceId).toBe(trace0);
    expect(tracer.startSpan("next", { root: true }).spanContext().traceId).not.toBe(trace0);
    await started?.shutdown();
    started = undefined;
    expect(activeTracer()).toBeUndefined();
    expect(delegate()).toBe(noopDelegate);
  });
});
