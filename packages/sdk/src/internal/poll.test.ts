import { afterEach, describe, expect, it, vi } from "vitest";
import { TimeoutError } from "../errors.ts";
import type { RequestRecord } from "../types.ts";
import { DEFAULT_POLL_TIMING, type FetchRecord, pollUntilFinal } from "./poll.ts";

const record = (status: RequestRecord["status"], attempts = 0): RequestRecord =>
  ({
    request_id: "0193a0b8-0000-7000-8000-000000000001",
    api_key_id: null,
    kind: "orders",
    status,
    trace_id: "0af7651916cd43dd8448eb211c80319c",
    idempotency_key: null,
    item_count: 1,
    accepted_at: "2025-01-01T12:00:00Z",
    started_at: null,
    completed_at: null,
    attempts,
    retry_of: null,
    retried_by: null,
    result: null,
    errors: [],
    error: null,
  }) as RequestRecord;

function sequence(records: RequestRecord[], retryAfterMs?: number): FetchRecord & { calls: number } {
  const f = Object.assign(
    async () => {
      const r = records[Math.min(f.calls++, records.length - 1)] as RequestRecord;
      return { record: r, retryAfterMs };
    },
    { calls: 0 },
  );
  return f;
}

afterEach(() => {
  vi.useRealTimers();
});

describe("pollUntilFinal", () => {
  const noJitter = { ...DEFAULT_POLL_TIMING, random: () => 0.5 };

  it("backs off from 100 ms doubling to a 2 s cap and returns the final record", async () => {
    const sleeps: number[] = [];
    const statuses = [
      "pending",
      "pending",
      "processing",
      "processing",
      "processing",
      "processing",
      "processing",
      "processing",
      "succeeded",
    ] as const;
    const fetch = sequence(statuses.map((s) => record(s, s === "pending" ? 0 : 1)));
    const final = await pollUntilFinal(
      "r",
      fetch,
      {},
      { ...noJitter, sleep: async (ms) => void sleeps.push(ms) },
    );
    expect(final.status).toBe("succeeded");
    expect(sleeps).toEqual([100, 200, 400, 800, 1_600, 2_000, 2_000, 2_000]);
  });

  it("calls onProgress once per status or attempts change", async () => {
    const seen: string[] = [];
    const fetch = sequence([
      record("pending"),
      record("pending"),
      record("processing", 1),
      record("processing", 1),
      record("processing", 2),
      record("dead", 5),
    ]);
    const final = await pollUntilFinal(
      "r",
      fetch,
      { onProgress: (r) => seen.push(`${r.status}#${r.attempts}`) },
      { ...noJitter, sleep: async () => {} },
    );
    expect(final.status).toBe("dead");
    expect(seen).toEqual(["pending#0", "processing#1", "processing#2", "dead#5"]);
  });

  it("uses Retry-After as a floor for the next interval", async () => {
    const sleeps: number[] = [];
    const fetch = sequence([record("pending"), record("succeeded")], 1_000);
    await pollUntilFinal("r", fetch, {}, { ...noJitter, sleep: async (ms) => void sleeps.push(ms) });
    expect(sleeps).toEqual([1_000]);
  });

  it("throws TimeoutError naming the last status when the wait runs out", async () => {
    vi.useFakeTimers();
    const fetch = sequence([record("processing", 2)]);
    const p = pollUntilFinal("r-1", fetch, { timeoutMs: 5_000 }).catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(5_001);
    const err = await p;
    expect(err).toBeInstanceOf(TimeoutError);
    expect((err as Error).message).toMatch(/r-1: still processing after 2 attempt/);
  });

  it("rejects with the abort reason when the caller aborts mid-wait", async () => {
    vi.useFakeTimers();
    const controller = new AbortController();
    const fetch = sequence([record("pending")]);
    const p = pollUntilFinal("r", fetch, { signal: controller.signal }).catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(1_000);
    const callsBefore = fetch.calls;
    controller.abort();
    expect(await p).toMatchObject({ name: "AbortError" });
    await vi.advanceTimersByTimeAsync(10_000);
    expect(fetch.calls).toBe(callsBefore);
  });

  it("returns at once when a resumed wait finds the request already final", async () => {
    const fetch = sequence([record("failed", 1)]);
    const sleeps: number[] = [];
    const final = await pollUntilFinal(
      "r",
      fetch,
      {},
      { ...noJitter, sleep: async (ms) => void sleeps.push(ms) },
    );
    expect(final.status).toBe("failed");
    expect(sleeps).toEqual([]);
    expect(fetch.calls).toBe(1);
  });
});
