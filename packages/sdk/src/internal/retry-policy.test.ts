import { describe, expect, it } from "vitest";
import {
  type AttemptOutcome,
  backoffDelay,
  DEFAULT_RETRY_CONFIG,
  decideRetry,
  parseRetryAfter,
  resetAtMs,
} from "./retry-policy.ts";

const NOW = Date.UTC(2025, 0, 1, 12, 0, 0);
const res = (status: number, headers: Record<string, string> = {}): AttemptOutcome => ({
  kind: "response",
  status,
  headers: new Headers(headers),
});
const config = DEFAULT_RETRY_CONFIG; // 3 retries, 500 ms initial, 8 s cap, 60 s longest server wait

describe("decideRetry", () => {
  // random() = 0 → no jitter: backoff is the full base, server waits get no extra.
  const cases: Array<
    [string, AttemptOutcome, { idempotent?: boolean; retryIndex?: number }, false | number]
  > = [
    ["200 is final", res(200), {}, false],
    ["400 is final", res(400), {}, false],
    ["404 is final", res(404), {}, false],
    ["422 is final", res(422), {}, false],
    ["408 retries with backoff", res(408), {}, 500],
    ["500 retries with backoff", res(500), {}, 500],
    ["502 second retry doubles", res(502), { retryIndex: 1 }, 1_000],
    ["third retry quadruples", res(500), { retryIndex: 2 }, 2_000],
    ["503 honours Retry-After", res(503, { "retry-after": "3" }), {}, 3_000],
    ["429 honours Retry-After seconds", res(429, { "retry-after": "2" }), {}, 2_000],
    [
      "429 honours Retry-After HTTP date",
      res(429, { "retry-after": new Date(NOW + 5_000).toUTCString() }),
      {},
      5_000,
    ],
    [
      "429 without Retry-After waits until X-RateLimit-Reset",
      res(429, { "x-ratelimit-reset": String(NOW / 1000 + 7) }),
      {},
      7_000,
    ],
    ["429 with neither falls back to backoff", res(429), {}, 500],
    ["429 asking longer than the cap is not retried", res(429, { "retry-after": "61" }), {}, false],
    ["network error retries when idempotent", { kind: "network" }, {}, 500],
    ["timeout retries when idempotent", { kind: "timeout" }, {}, 500],
    ["network error is final for a non-idempotent POST", { kind: "network" }, { idempotent: false }, false],
    ["500 is final for a non-idempotent POST", res(500), { idempotent: false }, false],
    [
      "429 retries even a non-idempotent POST",
      res(429, { "retry-after": "1" }),
      { idempotent: false },
      1_000,
    ],
    ["503 retries even a non-idempotent POST", res(503), { idempotent: false }, 500],
    ["no retry left", res(503), { retryIndex: 3 }, false],
  ];
  it.each(cases)("%s", (_name, outcome, ctx, expected) => {
    const d = decideRetry(outcome, config, {
      retryIndex: 0,
      idempotent: true,
      now: NOW,
      random: () => 0,
      ...ctx,
    });
    if (expected === false) expect(d).toEqual({ retry: false });
    else expect(d).toEqual({ retry: true, delayMs: expected });
  });

  it("caps exponential backoff at maxDelayMs", () => {
    expect(backoffDelay(10, config, () => 0)).toBe(8_000);
  });

  it("jitter lowers backoff by at most 25 % and only raises server-requested waits", () => {
    expect(backoffDelay(1, config, () => 0.999)).toBeGreaterThanOrEqual(750);
    const d = decideRetry(res(429, { "retry-after": "2" }), config, {
      retryIndex: 0,
      idempotent: true,
      now: NOW,
      random: () => 0.999,
    });
    expect(d.retry && d.delayMs).toBeGreaterThan(2_000);
    expect(d.retry && d.delayMs).toBeLessThanOrEqual(2_300);
  });
});

describe("header parsing", () => {
  it("parses Retry-After as seconds or date, ignores garbage", () => {
    expect(parseRetryAfter("0", NOW)).toBe(0);
    expect(parseRetryAfter("garbage", NOW)).toBeUndefined();
    expect(parseRetryAfter(null, NOW)).toBeUndefined();
  });

  it("reads X-RateLimit-Reset relative to the server's Date header, not the local clock", () => {
    const serverNow = NOW + 3_600_000; // server clock one hour ahead of ours
    const headers = new Headers({
      "x-ratelimit-reset": String(serverNow / 1000 + 10),
      date: new Date(serverNow).toUTCString(),
    });
    expect(resetAtMs(headers, NOW)).toBe(NOW + 10_000);
  });
});
