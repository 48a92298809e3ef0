import { describe, expect, it } from "vitest";
import {
  checkRateLimits,
  parseDuration,
  parseNonNegativeInteger,
  parseRateLimits,
  parseSwitch,
  rateLimitsWith,
  readSharedSettings,
} from "./config.ts";
import { DEFAULT_RATE_LIMITS } from "./rate-limits.ts";

describe("parseDuration", () => {
  it.each([
    ["250ms", 250],
    ["5s", 5000],
    [" 1.5s ", 1500],
    ["5m", 300_000],
    ["2h", 7_200_000],
  ])("parses %j", (text, ms) => {
    expect(parseDuration(text)).toBe(ms);
  });

  it.each(["5", "5d", "-5s", "s", ""])("rejects %j", (text) => {
    expect(() => parseDuration(text)).toThrow(/invalid duration/);
  });
});

describe("parseNonNegativeInteger", () => {
  it("reads whole numbers and leaves unset or empty values to the default", () => {
    expect(parseNonNegativeInteger("0", "N")).toBe(0);
    expect(parseNonNegativeInteger("42", "N")).toBe(42);
    expect(parseNonNegativeInteger(undefined, "N")).toBeUndefined();
    expect(parseNonNegativeInteger("", "N")).toBeUndefined();
  });

  it.each(["-1", "1.5", "5s", "many"])("rejects %j, naming the variable", (value) => {
    expect(() => parseNonNegativeInteger(value, "OISR_X")).toThrow("OISR_X must be a non-negative integer");
  });
});

describe("parseSwitch", () => {
  it("is on for 1 only", () => {
    expect([parseSwitch("1"), parseSwitch("0"), parseSwitch("true"), parseSwitch(undefined)]).toEqual([
      true,
      false,
      false,
      undefined,
    ]);
  });
});

describe("rate-limit overrides", () => {
  it("keeps only the named scopes; rateLimitsWith puts them over the defaults", () => {
    expect(parseRateLimits('{"ingest": 100000}')).toEqual({ ingest: 100000 });
    expect(rateLimitsWith(parseRateLimits('{"ingest": 100000}'))).toEqual({
      ...DEFAULT_RATE_LIMITS,
      ingest: 100000,
    });
    expect(rateLimitsWith(undefined)).toEqual(DEFAULT_RATE_LIMITS);
  });

  it.each([
    ['{"nope": 1}', /OISR_RATE_LIMITS: unknown scope "nope" \(scopes: ingest, ingest_inventory/],
    ['{"ingest": 0}', /OISR_RATE_LIMITS: the limit of "ingest" must be a positive integer/],
    ['{"ingest": 1.5}', /positive integer/],
    ['{"ingest": "many"}', /positive integer/],
    ["[1]", /OISR_RATE_LIMITS must be an object/],
    ["null", /OISR_RATE_LIMITS must be an object/],
    ["{ingest: 5}", /OISR_RATE_LIMITS is not JSON/],
  ])("rejects %s clearly", (json, error) => {
    expect(() => parseRateLimits(json)).toThrow(error);
  });

  it("names the source of overrides given as a value", () => {
    expect(checkRateLimits({ webhooks: 5 }, "rateLimits")).toEqual({ webhooks: 5 });
    expect(() => checkRateLimits({ webhook: 5 }, "rateLimits")).toThrow(
      /^rateLimits: unknown scope "webhook"/,
    );
    // Own members only: an inherited name is not a scope it was given.
    expect(checkRateLimits(Object.create({ nope: 1 }), "rateLimits")).toEqual({});
  });
});

describe("readSharedSettings", () => {
  it("leaves out what is unset, so each side applies its own default", () => {
    expect(readSharedSettings({})).toEqual({});
    expect(readSharedSettings({ OISR_RATE_LIMITS: "", OISR_MAX_ATTEMPTS: "" })).toEqual({});
  });

  it("reads every shared variable", () => {
    expect(
      readSharedSettings({
        OISR_RATE_LIMITS: '{"orders_read": 2}',
        OISR_MAX_ATTEMPTS: "3",
        OISR_RETRY_BASE_MS: "50",
        OISR_REQUEST_RETENTION_DAYS: "7",
        OISR_WEBHOOK_ALLOW_PRIVATE_NETWORKS: "1",
        OISR_WEBHOOK_SUBSCRIPTION_CONCURRENCY: "2",
      }),
    ).toEqual({
      rateLimits: { orders_read: 2 },
      maxAttempts: 3,
      retryBaseMs: 50,
      requestRetentionDays: 7,
      webhookAllowPrivateNetworks: true,
      webhookSubscriptionConcurrency: 2,
    });
  });

  it.each(["0", "101", "2.5", "four", "-1"])("rejects OISR_WEBHOOK_SUBSCRIPTION_CONCURRENCY=%s", (value) => {
    expect(() => readSharedSettings({ OISR_WEBHOOK_SUBSCRIPTION_CONCURRENCY: value })).toThrow(
      "OISR_WEBHOOK_SUBSCRIPTION_CONCURRENCY must be a whole number from 1 to 100",
    );
  });

  it.each([
    ["1", 1],
    ["100", 100],
    ["", undefined],
  ])("reads OISR_WEBHOOK_SUBSCRIPTION_CONCURRENCY=%j as %s", (value, concurrency) => {
    const settings = readSharedSettings({ OISR_WEBHOOK_SUBSCRIPTION_CONCURRENCY: value });
    expect(settings.webhookSubscriptionConcurrency).toBe(concurrency);
  });

  it("makes at least one attempt", () => {
    expect(readSharedSettings({ OISR_MAX_ATTEMPTS: "0" }).maxAttempts).toBe(1);
  });

  it.each(["OISR_MAX_ATTEMPTS", "OISR_RETRY_BASE_MS"])("rejects a bad %s", (name) => {
    expect(() => readSharedSettings({ [name]: "-1" })).toThrow(`${name} must be a non-negative integer`);
  });

  it.each([
    ["30d", 30],
    ["30", 30],
    ["12h", 0.5],
    ["90m", 90 / 1440],
    ["1.5d", 1.5],
    ["1m", 1 / 1440],
  ])("reads OISR_REQUEST_RETENTION=%j as %s days", (value, days) => {
    expect(readSharedSettings({ OISR_REQUEST_RETENTION: value }).requestRetentionDays).toBeCloseTo(days, 12);
  });

  it("prefers OISR_REQUEST_RETENTION to the older OISR_REQUEST_RETENTION_DAYS", () => {
    const env = { OISR_REQUEST_RETENTION: "12h", OISR_REQUEST_RETENTION_DAYS: "7" };
    expect(readSharedSettings(env).requestRetentionDays).toBe(0.5);
  });

  it.each([
    ["OISR_REQUEST_RETENTION", "-1"],
    ["OISR_REQUEST_RETENTION", "0"],
    ["OISR_REQUEST_RETENTION", "30s"],
    ["OISR_REQUEST_RETENTION", "12 hours"],
    ["OISR_REQUEST_RETENTION", "1w"],
    ["OISR_REQUEST_RETENTION_DAYS", "-1"],
    ["OISR_REQUEST_RETENTION_DAYS", "abc"],
  ])("rejects %s=%j, naming the variable", (name, value) => {
    expect(() => readSharedSettings({ [name]: value })).toThrow(
      `${name} must be a duration of at least 1m such as 30d, 12h or 90m, or a number of days; got "${value}"`,
    );
  });
});
