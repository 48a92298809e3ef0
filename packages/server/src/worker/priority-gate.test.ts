import { describe, expect, it, vi } from "vitest";
import { createPriorityGate } from "./priority-gate.ts";

describe("priority gate", () => {
  it("lets big stages through at once while no short stage is in flight", () => {
    const gate = createPriorityGate();
    expect(gate.pass()).toBeUndefined();
    gate.enter()();
    expect(gate.pass()).toBeUndefined();
  });

  it("holds big stages until every short stage has ended, each end counted once", async () => {
    const gate = createPriorityGate();
    const first = gate.enter();
    const second = gate.enter();
    let passed = false;
    void gate.pass()?.then(() => {
      passed = true;
    });
    first();
    first();
    await Promise.resolve();
    expect(passed).toBe(false);
    second();
    await Promise.resolve();
    expect(passed).toBe(true);
    expect(gate.pass()).toBeUndefined();
  });

  it("waits at most 100 ms when short stages keep coming", async () => {
    vi.useFakeTimers();
    try {
      const gate = createPriorityGate();
      gate.enter();
      let passed = false;
      void gate.pass()?.then(() => {
        passed = true;
      });
      await vi.advanceTimersByTimeAsync(99);
      expect(passed).toBe(false);
      await vi.advanceTimersByTimeAsync(1);
      expect(passed).toBe(true);
    } finally {
      vi.useRealTimers();
    }
  });
});
