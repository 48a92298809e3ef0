import { describe, expect, it } from "vitest";
import { backoffMs } from "./backoff.ts";

describe("request retry backoff", () => {
  it.each([
    [1, 500, 1000],
    [2, 1000, 2000],
    [3, 2000, 4000],
    [10, 30_000, 60_000],
  ])("attempt %i waits between %i and %i ms (base 1 s, cap 60 s)", (attempt, min, max) => {
    expect(backoffMs(attempt, 1000, 60_000, () => 0)).toBe(min);
    expect(backoffMs(attempt, 1000, 60_000, () => 1)).toBe(max);
  });
});
