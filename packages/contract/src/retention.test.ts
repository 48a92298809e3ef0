import { describe, expect, it } from "vitest";
import { retentionCutoff } from "./retention.ts";

describe("retentionCutoff", () => {
  it.each([
    ["the default 30 days", "2025-03-27T12:00:00.000Z", 30, "2025-02-25T12:00:00.000Z"],
    ["7 days across a leap day", "2024-03-03T00:00:00.000Z", 7, "2024-02-25T00:00:00.000Z"],
    ["half a day (the mock takes fractions)", "2025-03-27T12:00:00.000Z", 0.5, "2025-03-27T00:00:00.000Z"],
    ["0 days: only what is created from now on", "2025-03-27T12:00:00.000Z", 0, "2025-03-27T12:00:00.000Z"],
  ])("%s", (_, now, days, cutoff) => {
    expect(retentionCutoff(new Date(now), days).toISOString()).toBe(cutoff);
  });

  it("leaves the instant it is given as it was (callers reuse their now)", () => {
    const now = new Date("2025-03-27T12:00:00.000Z");
    retentionCutoff(now, 30);
    expect(now.toISOString()).toBe("2025-03-27T12:00:00.000Z");
  });
});
