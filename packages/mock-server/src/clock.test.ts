import { describe, expect, it } from "vitest";
import { Clock } from "./clock.ts";

const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

describe("mock clock", () => {
  it("runs timers when a frozen clock is advanced to them, never before", async () => {
    const clock = new Clock({ start: "2025-01-01T00:00:00Z", frozen: true });
    const fired: string[] = [];
    clock.at(clock.now() + 1000, () => fired.push("a"));
    clock.at(clock.now() + 5000, () => fired.push("b"));
    await tick();
    expect(fired).toEqual([]);
    clock.advance(1000);
    await tick();
    expect(fired).toEqual(["a"]);
    clock.set("2025-01-01T00:00:05Z");
    await tick();
    expect(fired).toEqual(["a", "b"]);
  });

  it("follows real time unless frozen, and can be frozen and unfrozen in place", async () => {
    const clock = new Clock({ start: "2030-01-01T00:00:00Z" });
    const start = clock.now();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(clock.now()).toBeGreaterThan(start);
    clock.freeze();
    const frozenAt = clock.now();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(clock.now()).toBe(frozenAt);
    clock.unfreeze();
    expect(clock.now()).toBeGreaterThanOrEqual(frozenAt);
  });

  it("cancels timers, and reset goes back to the start without them", async () => {
    const clock = new Clock({ start: 0, frozen: true });
    let fired = 0;
    const cancel = clock.at(10, () => fired++);
    cancel();
    clock.at(20, () => fired++);
    clock.advance(100);
    clock.reset();
    await tick();
    expect(fired).toBe(0);
    expect(clock.now()).toBe(0);
  });
});
