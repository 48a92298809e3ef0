// The tracer provider (decision 010): registered only when an OTLP endpoint is configured, so a
// server without one loads no SDK and every span site below is a null check. Spans are made by
// hand at the few places that matter (HTTP call, accept, queue wait, apply, fan-out, delivery)
// rather than by auto-instrumentation.
import { context, DiagLogLevel, diag, propagation, type Tracer, trace } from "@opentelemetry/api";
import type { Logger } from "pino";
import type { TelemetryConfig } from "./settings.ts";

export type { TelemetryConfig } from "./settings.ts";

export interface Tracing {
  /** Exports what is buffered, then unregisters the provider. */
  shutdown(): Promise<void>;
}

let tracer: Tracer | undefined;
/** A trace id a root span must take (see `startRootSpan`); read once by the id generator. */
let pendingTraceId: string | undefined;

/** The tracer when tracing is on; undefined when it is off (then nothing is recorded or built). */
export function activeTracer(): Tracer | undefined {
  return tracer;
}

/**
 * Starts a span with no parent whose trace id is `traceId`: the id the API already answered with
 * (X-Trace-Id, the ack's trace_id, the request record) is then the trace's id, one id per call.
 */
export function startRootSpan(
  t: Tracer,
  name: string,
  options: Parameters<Tracer["startSpan"]>[1],
  traceId: string,
) {
  pendingTraceId = traceId;
  try {
    return t.startSpan(name, { ...options, root: true });
  } finally {
    pendingTraceId = undefined;
  }
}

/**
 * Registers a tracer provider exporting over OTLP/HTTP when `config.tracesEndpoint` is set;
 * undefined (and nothing loaded or registered) otherwise. One provider per process at a time.
 */
export async function startTracing(config: TelemetryConfig, logger: Logger): Promise<Tracing | undefined> {
  const url = config.tracesEndpoint;
  if (!url) return undefined;
  if (tracer) throw new Error("tracing is already started in this process");
  const [{ NodeTracerProvider }, { BatchSpanProcessor, RandomIdGenerator }, resources, exporter] =
    await Promise.all([
      import("@opentelemetry/sdk-trace-node"),
      import("@opentelemetry/sdk-trace-base"),
      import("@opentelemetry/resources"),
      config.protocol === "http/json"
        ? import("@opentelemetry/exporter-trace-otlp-http")
        : import("@opentelemetry/exporter-trace-otlp-proto"),
    ]);
  const random = new RandomIdGenerator();
  const resource = resources
    .defaultResource()
    .merge(resources.detectResources({ detectors: [resources.envDetector] }))
    // OTEL_SERVICE_NAME wins over service.name in OTEL_RESOURCE_ATTRIBUTES, as the SDK specification says.
    .merge(resources.resourceFromAttributes({ "service.name": config.serviceName }));
  // The exporter reads OTEL_EXPORTER_OTLP_(TRACES_)HEADERS, _TIMEOUT and _COMPRESSION itself.
  const provider = new NodeTracerProvider({
    resource,
    idGenerator: {
      generateTraceId: () => pendingTraceId ?? random.generateTraceId(),
      generateSpanId: () => random.generateSpanId(),
    },
    // Sampler (OTEL_TRACES_SAMPLER), limits and the batch processor's OTEL_BSP_* come from the environment.
    spanProcessors: [new BatchSpanProcessor(new exporter.OTLPTraceExporter({ url }))],
  });
  // An unreachable collector must not go unnoticed: the SDK reports export failures through diag.
  const log = logger.child({ component: "opentelemetry" });
  diag.setLogger(
    {
      error: (message, ...args) => log.warn({ args }, message),
      warn: (message, ...args) => log.warn({ args }, message),
      info: () => {},
      debug: () => {},
      verbose: () => {},
    },
    DiagLogLevel.WARN,
  );
  // Context travels through AsyncLocalStorage; W3C traceparent/tracestate (and baggage) propagate.
  provider.register();
  tracer = provider.getTracer("oisr-server");
  return {
    async shutdown() {
      tracer = undefined;
      try {
        await provider.shutdown();
      } finally {
        trace.disable();
        context.disable();
        propagation.disable();
        diag.disable();
      }
    },
  };
}
