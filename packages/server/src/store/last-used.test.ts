// last_used_at batching: a key is queued at most once a minute per process, only when its stored
// value is missing or a minute old, and the queue is written by one call about a second later.
import { LAST_USED_RESOLUTION_MS } from "@oisr/contract";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createLastUsedRecorder, type KeyUse } from "./last-used.ts";

const T = 1_800_000_000_000;

describe("last_used_at recorder", () => {
  let writes: KeyUse[][];
  const write = async (used: KeyUse[]) => {
    writes.push(used);
  };

  beforeEach(() => {
    vi.useFakeTimers();
    writes = [];
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("writes a first use about a second later, every key queued meanwhile in one call", async () => {
    const recorder = createLastUsedRecorder(write);
    recorder.seen("key_a", null, T);
    recorder.seen("key_b", null, T + 10);
    recorder.seen("key_a", null, T + 20);
    await vi.advanceTimersByTimeAsync(999);
    expect(writes).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(writes).toEqual([
      [
        { id: "key_a", atMs: T },
        { id: "key_b", atMs: T + 10 },
      ],
    ]);
  });

  it("skips a key whose stored value is less than a minute old", async () => {
    const recorder = createLastUsedRecorder(write);
    recorder.seen("key_a", T - LAST_USED_RESOLUTION_MS + 1, T);
    await vi.advanceTimersByTimeAsync(2000);
    expect(writes).toEqual([]);
    recorder.seen("key_a", T - LAST_USED_RESOLUTION_MS, T);
    await vi.advanceTimersByTimeAsync(2000);
    expect(writes).toEqual([[{ id: "key_a", atMs: T }]]);
  });

  it("queues a key at most once a minute per process, whatever the stored value says", async () => {
    const recorder = createLastUsedRecorder(write);
    recorder.seen("key_a", null, T);
    await vi.advanceTimersByTimeAsync(1000);
    // Other calls in the same minute still read the old value (they were authorized before the write).
    recorder.seen("key_a", null, T + 1500);
    recorder.seen("key_a", null, T + LAST_USED_RESOLUTION_MS - 1);
    await vi.advanceTimersByTimeAsync(2000);
    expect(writes).toHaveLength(1);
    recorder.seen("key_a", null, T + LAST_USED_RESOLUTION_MS);
    await vi.advanceTimersByTimeAsync(1000);
    expect(writes).toEqual([
      [{ id: "key_a", atMs: T }],
      [{ id: "key_a", atMs: T + LAST_USED_RESOLUTION_MS }],
    ]);
  });

  it("flush writes the queue at once (closing), and waits for writes in flight", async () => {
    let release: () => void = () => {};
    const slow = async (used: KeyUse[]) => {
      await new Promise<void>((resolve) => {
        release = resolve;
      });
      writes.push(used);
    };
    const recorder = createLastUsedRecorder(slow);
    recorder.seen("key_a", null, T);
    const flushed = recorder.flush();
    let done = false;
    void flushed.then(() => {
      done = true;
    });
    await vi.advanceTimersByTimeAsync(0);
    expect(done).toBe(false);
    release();
    await flushed;
    expect(writes).toEqual([[{ id: "key_a", atMs: T }]]);
    // Nothing queued: the timer was cleared with the queue.
    await vi.advanceTimersByTimeAsync(5000);
    expect(writes).toHaveLength(1);
  });

  it("after a failed write, the key's next call queues it again", async () => {
    let fail = true;
    const flaky = async (used: KeyUse[]) => {
      if (fail) throw new Error("database closed");
      writes.push(used);
    };
    const recorder = createLastUsedRecorder(flaky);
    recorder.seen("key_a", null, T);
    await recorder.flush();
    fail = false;
    recorder.seen("key_a", null, T + 5);
    await recorder.flush();
    expect(writes).toEqual([[{ id: "key_a", atMs: T + 5 }]]);
  });
});
