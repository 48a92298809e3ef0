import { setTimeout as sleep } from "node:timers/promises";
import { describe, expect, it } from "vitest";
import { fakeTerminal } from "../../test/terminal.ts";
import { barLine, createProgressView, formatDuration, plainLine } from "./progress.ts";
import type { Counters } from "./run.ts";

const counters = (n: number, total = 1000): Counters => ({
  read: n,
  sent: n,
  accepted: n,
  succeeded: n,
  stale: 0,
  created: n,
  updated: 0,
  unchanged: 0,
  succeededUnknown: 0,
  failed: 0,
  bytes: n * 10,
  totalBytes: total,
  resumedBatches: 0,
});

describe("the progress bar", () => {
  it("after Ctrl-C, says interrupted instead of a time left, and is not drawn again over what follows it", async () => {
    const term = fakeTerminal(160);
    let clock = 0;
    const view = createProgressView({ stream: term.stream, mode: "bar", intervalMs: 20, now: () => clock });
    term.stream.write("$ oisr ingest orders big.jsonl\n");
    view.update(counters(10));
    clock = 1500;
    await sleep(50);
    view.update(counters(20));
    term.stream.write("^C"); // the terminal echoes Ctrl-C where the cursor is: the end of the bar
    view.interrupted();
    view.note("Stopping: finishing requests in flight (Ctrl-C again to quit at once)…");
    await sleep(50);
    view.update(counters(30));
    clock = 3200;
    await sleep(50);
    view.stop();
    term.stream.write(
      "Interrupted after 30 of 30 items read (30% of the file): 30 succeeded, 0 failed; took 3.2 s (9 items/s)\n",
    );
    term.stream.write("State saved in big.jsonl.oisr-state.json: run the same command again to resume.\n");
    // Late progress callbacks and timer ticks must not touch the screen any more.
    view.update(counters(40));
    view.stop();
    await sleep(100);

    expect(term.screen()).toEqual([
      "$ oisr ingest orders big.jsonl",
      "Stopping: finishing requests in flight (Ctrl-C again to quit at once)…",
      expect.stringMatching(/^█{12}░{28}\s+30% of the file \| sent 30 \| .* \| elapsed 3\.2 s, interrupted$/),
      "Interrupted after 30 of 30 items read (30% of the file): 30 succeeded, 0 failed; took 3.2 s (9 items/s)",
      "State saved in big.jsonl.oisr-state.json: run the same command again to resume.",
    ]);
  });

  it("can be erased instead, for a run that got nowhere (the error is then the only output)", () => {
    const term = fakeTerminal();
    const view = createProgressView({ stream: term.stream, mode: "bar", now: () => 0 });
    view.update(counters(1));
    view.stop({ clear: true });
    term.stream.write("oisr ingest: authentication failed: …\n");
    expect(term.screen()).toEqual(["oisr ingest: authentication failed: …"]);
  });

  it("labels its time: elapsed, then the estimate of what is left", () => {
    expect(barLine(counters(50), 44_000, 200)).toMatch(
      /50% of the file \| sent 50 \| accepted 50 \| succeeded 50 \| failed 0 \| elapsed 44\.0 s, about 44\.0 s left$/,
    );
    expect(barLine(counters(25), 88_000, 200)).toMatch(/\| elapsed 1 min 28 s, about 4 min 24 s left$/);
    expect(barLine(counters(0), 1000, 200)).toMatch(/\| elapsed 1\.0 s$/);
    expect(plainLine(counters(50), 12_300)).toBe(
      "progress: 50% read, 50 items, sent 50, accepted 50, succeeded 50, failed 0, elapsed 12.3 s, about 12.3 s left",
    );
  });

  it("fits the terminal's width (a wrapped line could not be redrawn in place)", () => {
    for (const columns of [40, 80, 120])
      expect(barLine(counters(500), 61_000, columns).length).toBeLessThan(columns);
  });

  it("formats durations for people", () => {
    expect(formatDuration(3240)).toBe("3.2 s");
    expect(formatDuration(65_400)).toBe("1 min 05 s");
    expect(formatDuration(7_380_000)).toBe("2 h 03 min");
  });

  it("prints plain lines off a terminal, and the last state once when stopped", () => {
    const term = fakeTerminal();
    let clock = 0;
    const view = createProgressView({
      stream: term.stream,
      mode: "lines",
      intervalMs: 60_000,
      now: () => clock,
    });
    view.update(counters(5));
    clock = 2000;
    view.note("Stopping: finishing requests in flight (Ctrl-C again to quit at once)…");
    view.stop();
    view.stop();
    expect(term.screen()).toEqual([
      "Stopping: finishing requests in flight (Ctrl-C again to quit at once)…",
      "progress: 5% read, 5 items, sent 5, accepted 5, succeeded 5, failed 0, elapsed 2.0 s",
    ]);
  });

  it("off a terminal too, prints its last line again after Ctrl-C without the time left", async () => {
    const term = fakeTerminal();
    let clock = 0;
    const view = createProgressView({ stream: term.stream, mode: "lines", intervalMs: 20, now: () => clock });
    view.update(counters(50));
    clock = 10_000;
    await sleep(50);
    view.interrupted();
    view.stop();
    expect(term.screen()).toEqual([
      "progress: 50% read, 50 items, sent 50, accepted 50, succeeded 50, failed 0, elapsed 10.0 s, about 10.0 s left",
      "progress: 50% read, 50 items, sent 50, accepted 50, succeeded 50, failed 0, elapsed 10.0 s, interrupted",
    ]);
  });

  it("counts stale items apart from succeeded ones", () => {
    const c = { ...counters(50), succeeded: 49, created: 49, stale: 1 };
    expect(barLine(c, 1000, 200)).toContain("| succeeded 49 | stale 1 | failed 0 |");
    expect(plainLine(c)).toContain("succeeded 49, stale 1, failed 0");
  });
});
