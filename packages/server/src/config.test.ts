import { describe, expect, it } from "vitest";
import { DEFAULT_RATE_LIMITS, loadConfig, parseDuration, parseRateLimits } from "./config.ts";

describe("config", () => {
  it.each([
    ["250ms", 250],
    ["5s", 5000],
    ["5m", 300_000],
    ["2h", 7_200_000],
  ])("parses the duration %s", (text, ms) => {
    expect(parseDuration(text)).toBe(ms);
  });

  it("rejects a duration without a unit", () => {
    expect(() => parseDuration("5")).toThrow(/invalid duration/);
  });

  it("overrides only the named rate-limit scopes", () => {
    expect(parseRateLimits('{"ingest": 100000}')).toEqual({ ...DEFAULT_RATE_LIMITS, ingest: 100000 });
  });

  it.each(['{"nope": 1}', '{"ingest": 0}', '{"ingest": "many"}'])("rejects OISR_RATE_LIMITS=%s", (json) => {
    expect(() => parseRateLimits(json)).toThrow(/OISR_RATE_LIMITS/);
  });

  it("reads the contract's defaults from an empty environment", () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 8080,
      role: "all",
      databaseUrl: undefined,
      dataDir: "./.oisr-data",
      maxAttempts: 5,
    });
    expect(config.webhookRetrySchedule).toEqual([
      5000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000,
    ]);
  });

  it("bounds slow clients by default: 10 s for headers, 30 s per request, 5 s keep-alive, 1000 connections", () => {
    expect(loadConfig({})).toMatchObject({
      headersTimeoutMs: 10_000,
      requestTimeoutMs: 30_000,
      keepAliveTimeoutMs: 5000,
      maxConnections: 1000,
    });
  });

  it("reads the connection limits from the environment", () => {
    expect(
      loadConfig({
        OISR_HEADERS_TIMEOUT_MS: "2000",
        OISR_REQUEST_TIMEOUT_MS: "60000",
        OISR_KEEP_ALIVE_TIMEOUT_MS: "0",
        OISR_MAX_CONNECTIONS: "50",
      }),
    ).toMatchObject({
      headersTimeoutMs: 2000,
      requestTimeoutMs: 60_000,
      keepAliveTimeoutMs: 0,
      maxConnections: 50,
    });
  });

  it.each([
    ["OISR_HEADERS_TIMEOUT_MS", "-1"],
    ["OISR_REQUEST_TIMEOUT_MS", "1.5"],
    ["OISR_KEEP_ALIVE_TIMEOUT_MS", "5s"],
    ["OISR_MAX_CONNECTIONS", "many"],
  ])("rejects %s=%s", (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(new RegExp(`${name} must be a non-negative integer`));
  });

  it("rejects a headers timeout longer than the request timeout, as Node would", () => {
    expect(() => loadConfig({ OISR_HEADERS_TIMEOUT_MS: "40000" })).toThrow(
      /OISR_HEADERS_TIMEOUT_MS must not exceed OISR_REQUEST_TIMEOUT_MS/,
    );
    expect(() => loadConfig({ OISR_HEADERS_TIMEOUT_MS: "5000", OISR_REQUEST_TIMEOUT_MS: "4000" })).toThrow(
      /must not exceed/,
    );
  });

  it("accepts either timeout turned off (0) whatever the other", () => {
    expect(loadConfig({ OISR_HEADERS_TIMEOUT_MS: "40000", OISR_REQUEST_TIMEOUT_MS: "0" })).toMatchObject({
      headersTimeoutMs: 40_000,
      requestTimeoutMs: 0,
    });
    expect(loadConfig({ OISR_HEADERS_TIMEOUT_MS: "0" }).headersTimeoutMs).toBe(0);
  });
});
