import { describe, expect, it } from "vitest";
import { telemetryConfig } from "./settings.ts";

describe("telemetryConfig", () => {
  it("is off without an endpoint, with the specification's defaults otherwise", () => {
    expect(telemetryConfig({})).toEqual({
      tracesEndpoint: undefined,
      protocol: "http/protobuf",
      serviceName: "oisr-server",
    });
  });

  it.each([
    [{ OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318" }, "http://collector:4318/v1/traces"],
    [{ OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318/" }, "http://collector:4318/v1/traces"],
    [
      { OTEL_EXPORTER_OTLP_ENDPOINT: "https://otlp.example.com/prefix" },
      "https://otlp.example.com/prefix/v1/traces",
    ],
    // The signal-specific URL is taken as it is, and wins.
    [
      {
        OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318",
        OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: "http://tempo:4318/custom",
      },
      "http://tempo:4318/custom",
    ],
  ])("%j exports to %s", (env, url) => {
    expect(telemetryConfig(env).tracesEndpoint).toBe(url);
  });

  it("reads the protocol (traces-specific first) and the service name", () => {
    const env = {
      OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318",
      OTEL_EXPORTER_OTLP_PROTOCOL: "http/protobuf",
      OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: "http/json",
      OTEL_SERVICE_NAME: "oisr-eu-1",
    };
    expect(telemetryConfig(env)).toMatchObject({ protocol: "http/json", serviceName: "oisr-eu-1" });
  });

  it.each([{ OTEL_SDK_DISABLED: "true" }, { OTEL_SDK_DISABLED: "TRUE" }, { OTEL_TRACES_EXPORTER: "none" }])(
    "%j turns tracing off even with an endpoint",
    (off) => {
      expect(
        telemetryConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318", ...off }).tracesEndpoint,
      ).toBeUndefined();
    },
  );

  it("refuses a protocol it cannot export with, and an endpoint that is not a URL", () => {
    expect(() => telemetryConfig({ OTEL_EXPORTER_OTLP_PROTOCOL: "grpc" })).toThrow(
      /http\/protobuf or http\/json/,
    );
    expect(() => telemetryConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: "localhost:4318" })).toThrow(
      /not an http\(s\) URL/,
    );
  });
});
