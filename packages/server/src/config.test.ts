import { DEFAULT_RATE_LIMITS } from "@oisr/contract";
import { describe, expect, it } from "vitest";
import { loadConfig } from "./config.ts";

// The parsers themselves are @oisr/contract's (config.test.ts there); this is how the server uses them.
describe("config", () => {
  it("puts OISR_RATE_LIMITS over the contract's defaults", () => {
    expect(loadConfig({ OISR_RATE_LIMITS: '{"ingest": 100000}' }).rateLimits).toEqual({
      ...DEFAULT_RATE_LIMITS,
      ingest: 100000,
    });
    expect(loadConfig({}).rateLimits).toEqual(DEFAULT_RATE_LIMITS);
  });

  it.each(['{"nope": 1}', '{"ingest": 0}', '{"ingest": "many"}', "ingest=5"])(
    "rejects OISR_RATE_LIMITS=%s",
    (json) => {
      expect(() => loadConfig({ OISR_RATE_LIMITS: json })).toThrow(/OISR_RATE_LIMITS/);
    },
  );

  it("reads the variables it shares with the mock", () => {
    expect(
      loadConfig({
        OISR_MAX_ATTEMPTS: "0",
        OISR_RETRY_BASE_MS: "50",
        OISR_REQUEST_RETENTION_DAYS: "7",
        OISR_WEBHOOK_ALLOW_PRIVATE_NETWORKS: "1",
        OISR_WEBHOOK_RETRY_SCHEDULE: "1s, 250ms",
        OISR_WEBHOOK_SUBSCRIPTION_CONCURRENCY: "2",
      }),
    ).toMatchObject({
      maxAttempts: 1,
      retryBaseMs: 50,
      requestRetentionDays: 7,
      webhookAllowPrivateNetworks: true,
      webhookRetrySchedule: [1000, 250],
      webhookSubscriptionConcurrency: 2,
    });
    expect(() => loadConfig({ OISR_WEBHOOK_RETRY_SCHEDULE: "5" })).toThrow(/invalid duration/);
  });

  it("yields stages unless OISR_STAGE_YIELD is off, and refuses anything else", () => {
    expect(loadConfig({}).stageYield).toBe(true);
    expect(loadConfig({ OISR_STAGE_YIELD: "on" }).stageYield).toBe(true);
    expect(loadConfig({ OISR_STAGE_YIELD: "off" }).stageYield).toBe(false);
    expect(() => loadConfig({ OISR_STAGE_YIELD: "no" })).toThrow(/OISR_STAGE_YIELD must be on or off/);
  });

  it("opens 10 database connections unless OISR_DATABASE_POOL_SIZE says otherwise, and at least one", () => {
    expect(loadConfig({}).databasePoolSize).toBe(10);
    expect(loadConfig({ OISR_DATABASE_POOL_SIZE: "3" }).databasePoolSize).toBe(3);
    expect(() => loadConfig({ OISR_DATABASE_POOL_SIZE: "0" })).toThrow(
      /OISR_DATABASE_POOL_SIZE must be at least 1/,
    );
  });

  it("reads the cursor key from OISR_CURSOR_SECRET, an empty one as unset", () => {
    expect(loadConfig({ OISR_CURSOR_SECRET: "k" }).cursorSecret).toBe("k");
    expect(loadConfig({ OISR_CURSOR_SECRET: "" }).cursorSecret).toBeUndefined();
    expect(loadConfig({}).cursorSecret).toBeUndefined();
  });

  it("reads the contract's defaults from an empty environment", () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 8080,
      role: "all",
      databaseUrl: undefined,
      dataDir: "./.oisr-data",
      maxAttempts: 5,
      retryBaseMs: 1000,
      requestRetentionDays: 30,
      webhookAllowPrivateNetworks: false,
      webhookSubscriptionConcurrency: 4,
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
    ["OISR_DATABASE_POOL_SIZE", "ten"],
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
