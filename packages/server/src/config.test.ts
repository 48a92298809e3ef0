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
});
