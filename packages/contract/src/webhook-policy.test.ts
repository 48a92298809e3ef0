import { describe, expect, it } from "vitest";
import {
  afterFailedAttempt,
  answeredAttempt,
  DEFAULT_DISABLE_POLICY,
  DEFAULT_WEBHOOK_RETRY_SCHEDULE,
  DEFAULT_WEBHOOK_RETRY_SCHEDULE_TEXT,
  type FailedAttempt,
  nextAttemptDelay,
  parseRetrySchedule,
  recordedStatus,
  shouldDisable,
} from "./webhook-policy.ts";

describe("parseRetrySchedule", () => {
  it("reads the default text as the default schedule", () => {
    expect(parseRetrySchedule(DEFAULT_WEBHOOK_RETRY_SCHEDULE_TEXT)).toEqual(DEFAULT_WEBHOOK_RETRY_SCHEDULE);
  });

  it.each([
    ["100ms,200ms", [100, 200]],
    [" 1s , 2m ,", [1000, 120_000]],
    ["", []],
    [",", []],
  ])("reads %j", (text, schedule) => {
    expect(parseRetrySchedule(text)).toEqual(schedule);
  });

  it("names the variable, the bad entry and the expected form", () => {
    expect(() => parseRetrySchedule("5s,5x")).toThrow(
      'OISR_WEBHOOK_RETRY_SCHEDULE: invalid duration "5x" (expected e.g. 500ms, 5s, 5m, 2h) in "5s,5x"; write e.g. 5s,5m,30m,2h',
    );
    expect(() => parseRetrySchedule("soon", "retrySchedule")).toThrow(
      /^retrySchedule: invalid duration "soon"/,
    );
  });
});

describe("nextAttemptDelay", () => {
  const schedule = [5000, 300_000, 1_800_000];
  it.each([
    [1, 5000],
    [2, 300_000],
    [3, 1_800_000],
  ])("after attempt %i waits the schedule's step (%i ms) ± 10 %", (attempt, base) => {
    expect(nextAttemptDelay(attempt, schedule, () => 0)).toBe(base * 0.9);
    expect(nextAttemptDelay(attempt, schedule, () => 0.5)).toBe(base);
    expect(nextAttemptDelay(attempt, schedule, () => 0.999_999)).toBeCloseTo(base * 1.1, -1);
  });

  it("stays within ± 10 % with the real random source", () => {
    for (let i = 0; i < 100; i++) {
      const delay = nextAttemptDelay(1, schedule) as number;
      expect(delay).toBeGreaterThanOrEqual(4500);
      expect(delay).toBeLessThanOrEqual(5500);
    }
  });

  it("gives up once the schedule is spent", () => {
    expect(nextAttemptDelay(4, schedule)).toBeNull();
    expect(nextAttemptDelay(1, [])).toBeNull();
  });
});

describe("shouldDisable", () => {
  const now = new Date("2025-03-02T12:00:00Z");
  it.each([
    [20, "2025-03-01T11:59:59Z", true],
    [20, "2025-03-01T12:00:00Z", true],
    [20, "2025-03-01T12:00:01Z", false], // failing for less than a day: a burst during a short outage
    [19, "2025-02-01T00:00:00Z", false], // a day of failures, but too few attempts to be sure
    [500, null, false],
  ])("%i consecutive failures since %s -> %s", (failures, since, expected) => {
    expect(shouldDisable(failures, since, now, DEFAULT_DISABLE_POLICY)).toBe(expected);
    // Moments as epoch milliseconds (the mock's clock) decide the same.
    const sinceMs = since === null ? null : Date.parse(since);
    expect(shouldDisable(failures, sinceMs, now.getTime())).toBe(expected);
  });
});

describe("afterFailedAttempt", () => {
  const now = Date.parse("2025-03-02T12:00:00Z");
  const base: FailedAttempt = {
    status: 503,
    attempt: 1,
    testEvent: false,
    subscriptionEnabled: true,
    consecutiveFailures: 0,
    failingSince: null,
    now,
    schedule: [5000, 300_000],
    random: () => 0.5,
  };

  it.each<[string, Partial<FailedAttempt>, ReturnType<typeof afterFailedAttempt>]>([
    [
      "a first failure retries on the schedule",
      {},
      { consecutiveFailures: 1, disable: null, retryDelayMs: 5000 },
    ],
    [
      "no answer at all retries too",
      { status: undefined },
      { consecutiveFailures: 1, disable: null, retryDelayMs: 5000 },
    ],
    [
      "the last step of the schedule",
      { attempt: 2 },
      { consecutiveFailures: 1, disable: null, retryDelayMs: 300_000 },
    ],
    ["a spent schedule", { attempt: 3 }, { consecutiveFailures: 1, disable: null, retryDelayMs: null }],
    [
      "410 disables at once",
      { status: 410 },
      { consecutiveFailures: 1, disable: "http_410", retryDelayMs: null },
    ],
    [
      "410 to a test event on a disabled subscription",
      { status: 410, testEvent: true, subscriptionEnabled: false },
      { consecutiveFailures: 1, disable: "http_410", retryDelayMs: null },
    ],
    [
      "the 20th failure of a day-long streak disables",
      { consecutiveFailures: 19, failingSince: now - 86_400_000 },
      { consecutiveFailures: 20, disable: "failing", retryDelayMs: null },
    ],
    [
      "the 20th failure of a shorter streak retries",
      { consecutiveFailures: 19, failingSince: now - 86_399_999 },
      { consecutiveFailures: 20, disable: null, retryDelayMs: 5000 },
    ],
    [
      "a disabled subscription's event is not retried",
      { subscriptionEnabled: false },
      { consecutiveFailures: 1, disable: null, retryDelayMs: null },
    ],
    [
      "a disabled subscription's test event is retried, and its streak disables nothing",
      { subscriptionEnabled: false, testEvent: true, consecutiveFailures: 40, failingSince: 0 },
      { consecutiveFailures: 41, disable: null, retryDelayMs: 5000 },
    ],
  ])("%s", (_name, change, expected) => {
    expect(afterFailedAttempt({ ...base, ...change })).toEqual(expected);
  });

  it("jitters the delay with the default random source", () => {
    const { random: _, ...withoutRandom } = base;
    const delay = afterFailedAttempt(withoutRandom).retryDelayMs as number;
    expect(delay).toBeGreaterThanOrEqual(4500);
    expect(delay).toBeLessThanOrEqual(5500);
  });
});

describe("answeredAttempt", () => {
  it.each([
    [200, { ok: true, status: 200, durationMs: 12 }],
    [204, { ok: true, status: 204, durationMs: 12 }],
    [299, { ok: true, status: 299, durationMs: 12 }],
    [301, { ok: false, status: 301, error: "HTTP 301 Moved Permanently", durationMs: 12 }],
    [410, { ok: false, status: 410, error: "HTTP 410 Gone", durationMs: 12 }],
    [418, { ok: false, status: 418, error: "HTTP 418 I'm a Teapot", durationMs: 12 }],
    [503, { ok: false, status: 503, error: "HTTP 503 Service Unavailable", durationMs: 12 }],
    [599, { ok: false, status: 599, error: "HTTP 599", durationMs: 12 }],
    [0, { ok: false, status: 0, error: "HTTP 0", durationMs: 12 }],
  ])("%i", (status, expected) => {
    expect(answeredAttempt(status, 12)).toEqual(expected);
  });

  it.each([
    [undefined, null],
    [0, null],
    [99, null],
    [100, 100],
    [503, 503],
    [599, 599],
    [600, null],
  ])("records status %s as %s", (status, recorded) => {
    expect(recordedStatus(status)).toBe(recorded);
  });
});
