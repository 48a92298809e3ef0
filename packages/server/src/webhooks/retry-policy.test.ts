import { describe, expect, it } from "vitest";
import { DEFAULT_DISABLE_POLICY, nextAttemptDelay, shouldDisable } from "./retry-policy.ts";

const schedule = [5000, 300_000, 1_800_000];

describe("nextAttemptDelay", () => {
  it.each([
    [1, 5000],
    [2, 300_000],
    [3, 1_800_000],
  ])("after attempt %i waits the schedule's step (%i ms) ± 10 %", (attempt, base) => {
    expect(nextAttemptDelay(attempt, schedule, () => 0)).toBe(base * 0.9);
    expect(nextAttemptDelay(attempt, schedule, () => 0.5)).toBe(base);
    expect(nextAttemptDelay(attempt, schedule, () => 0.999_999)).toBeCloseTo(base * 1.1, -1);
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
    [20, "2025-03-01T12:00:01Z", false], // failing for less than a day: a burst during a short outage
    [19, "2025-02-01T00:00:00Z", false], // a day of failures, but too few attempts to be sure
    [500, null, false],
  ])("%i consecutive failures since %s -> %s", (failures, since, expected) => {
    expect(shouldDisable(failures, since, now, DEFAULT_DISABLE_POLICY)).toBe(expected);
  });
});
