// The standard OTEL_* variables this server reads itself (config.ts calls it with the rest of the
// environment). What the OpenTelemetry SDK reads on its own is left to it: OTEL_TRACES_SAMPLER(_ARG),
// OTEL_BSP_*, OTEL_SPAN_*_LIMIT, OTEL_EXPORTER_OTLP_(TRACES_)HEADERS/TIMEOUT/COMPRESSION and
// OTEL_RESOURCE_ATTRIBUTES; see docs/operations/tracing.md.

export type OtlpProtocol = "http/json" | "http/protobuf";

export interface TelemetryConfig {
  /** The OTLP/HTTP traces URL spans are exported to; undefined: tracing is off, nothing is exported. */
  tracesEndpoint: string | undefined;
  protocol: OtlpProtocol;
  serviceName: string;
}

/** Reads the OTEL_* settings from `env`. */
export function telemetryConfig(env: Record<string, string | undefined>): TelemetryConfig {
  const protocol = (env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL || env.OTEL_EXPORTER_OTLP_PROTOCOL) ?? "";
  // http/protobuf is the specification's default.
  if (protocol !== "" && protocol !== "http/json" && protocol !== "http/protobuf") {
    throw new Error(
      `OTEL_EXPORTER_OTLP_PROTOCOL must be http/protobuf or http/json (${protocol} is not supported)`,
    );
  }
  const disabled =
    env.OTEL_SDK_DISABLED?.trim().toLowerCase() === "true" ||
    env.OTEL_TRACES_EXPORTER?.trim().toLowerCase() === "none";
  return {
    tracesEndpoint: disabled ? undefined : tracesEndpoint(env),
    protocol: protocol === "" ? "http/protobuf" : protocol,
    serviceName: env.OTEL_SERVICE_NAME || "oisr-server",
  };
}

/**
 * The signal-specific endpoint is used as given; the general one is a base URL that `v1/traces` is
 * appended to (OTLP exporter specification).
 */
function tracesEndpoint(env: Record<string, string | undefined>): string | undefined {
  const specific = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim();
  const general = env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim();
  const url = specific || (general ? `${general.replace(/\/+$/, "")}/v1/traces` : undefined);
  if (url === undefined) return undefined;
  // URL.canParse would take "localhost:4318" as a URL of scheme "localhost:".
  if (!URL.canParse(url) || !["http:", "https:"].includes(new URL(url).protocol)) {
    throw new Error(`OTEL_EXPORTER_OTLP_${specific ? "TRACES_" : ""}ENDPOINT is not an http(s) URL: ${url}`);
  }
  return url;
}
