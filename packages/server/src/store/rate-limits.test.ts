import { describe, expect, it } from "vitest";
import { decide } from "./rate-limits.ts";

const row = (scope: string, lim: number, used: number, allowed: number, oldest = 1000) => ({
  allowed,
  scope,
  lim,
  used,
  oldest,
});

describe("rate-limit decisions for a group of concurrent calls", () => {
  it("counts each allowed call after those before it", () => {
    const rows = [row("ingest", 10, 4, 3)];
    expect([0, 1, 2].map((i) => decide(rows, i).remaining)).toEqual([5, 4, 3]);
    expect(decide(rows, 0)).toMatchObject({ allowed: true, limit: 10, reset: 1060 });
  });

  it("refuses the calls past the room left, with nothing remaining", () => {
    const rows = [row("ingest", 5, 3, 2)];
    expect([0, 1, 2, 3].map((i) => decide(rows, i).allowed)).toEqual([true, true, false, false]);
    expect(decide(rows, 3)).toMatchObject({ allowed: false, remaining: 0, limit: 5 });
  });

  // Inventory calls count toward both scopes, listed stricter first as scopesFor lists them.
  it.each([
    [
      "reports the scope with the fewest calls remaining",
      [row("ingest_inventory", 120, 100, 1, 990), row("ingest", 600, 10, 1, 1000)],
      0,
      { allowed: true, scope: "ingest_inventory", limit: 120, remaining: 19, reset: 1050 },
    ],
    [
      "reports the exhausted scope of a refused call, and retries when it has room",
      [row("ingest_inventory", 120, 120, 0, 990), row("ingest", 600, 10, 0, 1000)],
      0,
      { allowed: false, scope: "ingest_inventory", limit: 120, remaining: 0, reset: 1050, retryAt: 1050 },
    ],
    [
      // The group's two allowed calls filled ingest as well: retry at the later of the two resets.
      "retries a call refused by two full scopes when both have room",
      [row("ingest_inventory", 3, 1, 2, 990), row("ingest", 5, 3, 2, 1000)],
      2,
      { allowed: false, scope: "ingest_inventory", limit: 3, remaining: 0, reset: 1050, retryAt: 1060 },
    ],
  ])("%s", (_name, rows, i, decision) => {
    expect(decide(rows, i)).toEqual(decision);
  });
});
