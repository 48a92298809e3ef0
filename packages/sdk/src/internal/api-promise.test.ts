import { describe, expect, it } from "vitest";
import { CallPromise } from "./api-promise.ts";

const response = new Response(null, { status: 202, headers: { "x-trace-id": "abc" } });

describe("CallPromise", () => {
  it("is a Promise of the data", async () => {
    const p = new CallPromise(Promise.resolve({ data: { id: 1 }, response }));
    expect(p).toBeInstanceOf(Promise);
    expect(await p).toEqual({ id: 1 });
    expect(await p.then((d) => d.id)).toBe(1);
    expect(await Promise.all([p])).toEqual([{ id: 1 }]);
  });

  it("gives the data and the response from withResponse()", async () => {
    const { data, response: r } = await new CallPromise(
      Promise.resolve({ data: "x", response }),
    ).withResponse();
    expect(data).toBe("x");
    expect(r.headers.get("x-trace-id")).toBe("abc");
  });

  it("rejects through then, catch, finally and withResponse alike", async () => {
    const failing = () => new CallPromise<string>(Promise.reject(new Error("boom")));
    await expect(failing()).rejects.toThrow("boom");
    expect(await failing().catch((e: Error) => e.message)).toBe("boom");
    let ran = false;
    await expect(
      failing().finally(() => {
        ran = true;
      }),
    ).rejects.toThrow("boom");
    expect(ran).toBe(true);
    await expect(failing().withResponse()).rejects.toThrow("boom");
  });

  it("leaves no unhandled rejection behind when only withResponse() is awaited", async () => {
    type Listener = (reason: unknown) => void;
    const proc = (
      globalThis as unknown as {
        process: { on(e: string, l: Listener): void; off(e: string, l: Listener): void };
      }
    ).process;
    const unhandled: unknown[] = [];
    const listener: Listener = (reason) => unhandled.push(reason);
    proc.on("unhandledRejection", listener);
    try {
      const caught = await new CallPromise(Promise.reject(new Error("boom")))
        .withResponse()
        .catch((e: Error) => e);
      expect(caught).toEqual(new Error("boom"));
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(unhandled).toEqual([]);
    } finally {
      proc.off("unhandledRejection", listener);
    }
  });

  it("derives plain promises, so chaining does not construct an CallPromise", async () => {
    const p = new CallPromise(Promise.resolve({ data: 1, response }));
    const chained = p.then((n) => n + 1);
    expect(chained).not.toBeInstanceOf(CallPromise);
    expect(p.finally(() => {})).not.toBeInstanceOf(CallPromise);
    expect(await chained).toBe(2);
  });
});
