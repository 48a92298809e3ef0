import { describe, expect, it } from "vitest";
import {
  afterFailedAttempt,
  answeredAttempt,
  backpressurePauseMs,
  DEFAULT_DISABLE_POLICY,
  DEFAULT_WEBHOOK_RETRY_SCHEDULE,
  DEFAULT_WEBHOOK_RETRY_SCHEDULE_TEXT,
  type FailedAttempt,
  nextAttemptDelay,
  parseHttpDate,
  parseRetryAfter,
  parseRetrySchedule,
  recordedStatus,
  responseSnippet,
  shouldDisable,
  unansweredAttemptError,
  WEBHOOK_RESPONSE_BODY_MAX_BYTES,
  WEBHOOK_RESPONSE_CONTENT_TYPE_MAX_CHARS,
} from "./webhook-policy.ts";

describe("parseRetrySchedule", () => {
  it("reads the default text as the default schedule", () => {
    expect(parseRetrySchedule(DEFAULT_WEBHOOK_RETRY_SCHEDULE_TEXT)).toEqual(DEFAULT_WEBHOOK_RETRY_SCHEDULE);
  });

  it.each([
    ["100ms,200ms", [100, 200]],
    [" 1s , 2m ,", [1000, 120_000]],
    ["", []],
    [",", []],
  ])("reads %j", (text, schedule) => {
    expect(parseRetrySchedule(text)).toEqual(schedule);
  });

  it("names the variable, the bad entry and the expected form", () => {
    expect(() => parseRetrySchedule("5s,5x")).toThrow(
      'OISR_WEBHOOK_RETRY_SCHEDULE: invalid duration "5x" (expected e.g. 500ms, 5s, 5m, 2h) in "5s,5x"; write e.g. 5s,5m,30m,2h',
    );
    expect(() => parseRetrySchedule("soon", "retrySchedule")).toThrow(
      /^retrySchedule: invalid duration "soon"/,
    );
  });
});

describe("nextAttemptDelay", () => {
  const schedule = [5000, 300_000, 1_800_000];
  it.each([
    [1, 5000],
    [2, 300_000],
    [3, 1_800_000],
  ])("after attempt %i waits the schedule's step (%i ms) ± 10 %", (attempt, base) => {
    expect(nextAttemptDelay(attempt, schedule, () => 0)).toBe(base * 0.9);
    expect(nextAttemptDelay(attempt, schedule, () => 0.5)).toBe(base);
    expect(nextAttemptDelay(attempt, schedule, () => 0.999_999)).toBeCloseTo(base * 1.1, -1);
  });

  it("stays within ± 10 % with the real random source", () => {
    for (let i = 0; i < 100; i++) {
      const delay = nextAttemptDelay(1, schedule) as number;
      expect(delay).toBeGreaterThanOrEqual(4500);
      expect(delay).toBeLessThanOrEqual(5500);
    }
  });

  it("gives up once the schedule is spent", () => {
    expect(nextAttemptDelay(4, schedule)).toBeNull();
    expect(nextAttemptDelay(1, [])).toBeNull();
  });
});

describe("shouldDisable", () => {
  const now = new Date("2025-03-02T12:00:00Z");
  it.each([
    [20, "2025-03-01T11:59:59Z", true],
    [20, "2025-03-01T12:00:00Z", true],
    [20, "2025-03-01T12:00:01Z", false], // failing for less than a day: a burst during a short outage
    [19, "2025-02-01T00:00:00Z", false], // a day of failures, but too few attempts to be sure
    [500, null, false],
  ])("%i consecutive failures since %s -> %s", (failures, since, expected) => {
    expect(shouldDisable(failures, since, now, DEFAULT_DISABLE_POLICY)).toBe(expected);
    // Moments as epoch milliseconds (the mock's clock) decide the same.
    const sinceMs = since === null ? null : Date.parse(since);
    expect(shouldDisable(failures, sinceMs, now.getTime())).toBe(expected);
  });
});

describe("afterFailedAttempt", () => {
  const now = Date.parse("2025-03-02T12:00:00Z");
  const base: FailedAttempt = {
    status: 503,
    attempt: 1,
    testEvent: false,
    subscriptionEnabled: true,
    consecutiveFailures: 0,
    failingSince: null,
    now,
    schedule: [5000, 300_000],
    random: () => 0.5,
  };

  it.each<[string, Partial<FailedAttempt>, ReturnType<typeof afterFailedAttempt>]>([
    [
      "a first failure retries on the schedule",
      {},
      { consecutiveFailures: 1, disable: null, retryDelayMs: 5000, pauseMs: 0 },
    ],
    [
      "no answer at all retries too",
      { status: undefined },
      { consecutiveFailures: 1, disable: null, retryDelayMs: 5000, pauseMs: 0 },
    ],
    [
      "the last step of the schedule",
      { attempt: 2 },
      { consecutiveFailures: 1, disable: null, retryDelayMs: 300_000, pauseMs: 0 },
    ],
    [
      "a spent schedule",
      { attempt: 3 },
      { consecutiveFailures: 1, disable: null, retryDelayMs: null, pauseMs: 0 },
    ],
    [
      "410 disables at once",
      { status: 410 },
      { consecutiveFailures: 1, disable: "http_410", retryDelayMs: null, pauseMs: 0 },
    ],
    [
      "410 to a test event on a disabled subscription",
      { status: 410, testEvent: true, subscriptionEnabled: false },
      { consecutiveFailures: 1, disable: "http_410", retryDelayMs: null, pauseMs: 0 },
    ],
    [
      "the 20th failure of a day-long streak disables",
      { consecutiveFailures: 19, failingSince: now - 86_400_000 },
      { consecutiveFailures: 20, disable: "failing", retryDelayMs: null, pauseMs: 0 },
    ],
    [
      "the 20th failure of a shorter streak retries",
      { consecutiveFailures: 19, failingSince: now - 86_399_999 },
      { consecutiveFailures: 20, disable: null, retryDelayMs: 5000, pauseMs: 0 },
    ],
    [
      "a disabled subscription's event is not retried",
      { subscriptionEnabled: false },
      { consecutiveFailures: 1, disable: null, retryDelayMs: null, pauseMs: 0 },
    ],
    [
      "a disabled subscription's test event is retried, and its streak disables nothing",
      { subscriptionEnabled: false, testEvent: true, consecutiveFailures: 40, failingSince: 0 },
      { consecutiveFailures: 41, disable: null, retryDelayMs: 5000, pauseMs: 0 },
    ],
    [
      "a Retry-After longer than the schedule's step delays the retry to it",
      { status: 429, retryAfterSeconds: 20 },
      { consecutiveFailures: 1, disable: null, retryDelayMs: 20_000, pauseMs: 20_000 },
    ],
    [
      "a Retry-After shorter than the step leaves the step",
      { retryAfterSeconds: 2 },
      { consecutiveFailures: 1, disable: null, retryDelayMs: 5000, pauseMs: 2000 },
    ],
    [
      "a Retry-After is capped at an hour",
      { attempt: 2, retryAfterSeconds: 7200 },
      { consecutiveFailures: 1, disable: null, retryDelayMs: 3_600_000, pauseMs: 3_600_000 },
    ],
    [
      "the last attempt's Retry-After still pauses the subscription",
      { attempt: 3, retryAfterSeconds: 60 },
      { consecutiveFailures: 1, disable: null, retryDelayMs: null, pauseMs: 60_000 },
    ],
  ])("%s", (_name, change, expected) => {
    expect(afterFailedAttempt({ ...base, ...change })).toEqual(expected);
  });

  it("jitters the delay with the default random source", () => {
    const { random: _, ...withoutRandom } = base;
    const delay = afterFailedAttempt(withoutRandom).retryDelayMs as number;
    expect(delay).toBeGreaterThanOrEqual(4500);
    expect(delay).toBeLessThanOrEqual(5500);
  });
});

describe("parseRetryAfter", () => {
  const now = Date.parse("2025-03-02T12:00:00.000Z");
  it.each<[string | null | undefined, number | null]>([
    ["2", 2],
    [" 120 ", 120],
    ["0", 0],
    ["1.2", 2], // not delta-seconds by the letter; the receiver's intent is clear, so rounded up
    ["99999999999999", 2_147_483_647], // recorded in a 32-bit column
    ["Sun, 02 Mar 2025 12:00:30 GMT", 30], // IMF-fixdate
    ["Sunday, 02-Mar-25 12:01:00 GMT", 60], // RFC 850
    ["Sun Mar  2 12:00:05 2025", 5], // asctime
    ["Sun, 02 Mar 2025 11:00:00 GMT", 0], // past: no wait
    [null, null],
    [undefined, null],
    ["", null],
    ["soon", null],
    ["-5", null],
    ["1e3", null],
    ["Sun, 02 Mar 2025 12:00:30 PST", null],
    ["2025-03-02T12:00:30Z", null], // ISO 8601 is not an HTTP-date
    ["Sun, 31 Feb 2025 12:00:30 GMT", null],
    ["Sun, 02 Mar 2025 25:00:30 GMT", null],
  ])("%j -> %j", (value, seconds) => {
    expect(parseRetryAfter(value, now)).toBe(seconds);
  });

  it("reads a fraction of a second left as a whole second", () => {
    expect(parseRetryAfter("Sun, 02 Mar 2025 12:00:03 GMT", now + 2_001)).toBe(1);
  });

  it("puts a two-digit RFC 850 year in the century that keeps it within 50 years", () => {
    expect(parseHttpDate("Monday, 01-Jan-74 00:00:00 GMT", now)).toBe(Date.UTC(2074, 0, 1));
    expect(parseHttpDate("Monday, 01-Jan-76 00:00:00 GMT", now)).toBe(Date.UTC(1976, 0, 1));
  });
});

describe("backpressurePauseMs", () => {
  it.each([
    [undefined, 0],
    [null, 0],
    [0, 0],
    [2, 2000],
    [3600, 3_600_000],
    [3601, 3_600_000],
  ])("%s s -> %i ms", (seconds, ms) => {
    expect(backpressurePauseMs(seconds)).toBe(ms);
  });
});

describe("answeredAttempt", () => {
  const now = Date.parse("2025-03-02T12:00:00.000Z");
  it.each([
    [429, "2", 2],
    [503, "Sun, 02 Mar 2025 12:00:07 GMT", 7],
    [500, "2", undefined], // only 429 and 503 ask to slow down
    [502, "2", undefined],
    [429, "later", undefined],
    [503, null, undefined],
  ])("%i with Retry-After %j keeps %j seconds", (status, header, seconds) => {
    const result = answeredAttempt(status, 5, header, now);
    expect(result.ok).toBe(false);
    expect(result.ok ? undefined : result.retryAfterSeconds).toBe(seconds);
    expect(Object.hasOwn(result, "retryAfterSeconds")).toBe(seconds !== undefined);
  });

  it("ignores Retry-After on a 2xx", () => {
    expect(answeredAttempt(200, 5, "60", now)).toEqual({ ok: true, status: 200, durationMs: 5 });
  });

  it.each([
    [200, { ok: true, status: 200, durationMs: 12 }],
    [204, { ok: true, status: 204, durationMs: 12 }],
    [299, { ok: true, status: 299, durationMs: 12 }],
    [301, { ok: false, status: 301, error: "HTTP 301 Moved Permanently", durationMs: 12 }],
    [410, { ok: false, status: 410, error: "HTTP 410 Gone", durationMs: 12 }],
    [418, { ok: false, status: 418, error: "HTTP 418 I'm a Teapot", durationMs: 12 }],
    [503, { ok: false, status: 503, error: "HTTP 503 Service Unavailable", durationMs: 12 }],
    [599, { ok: false, status: 599, error: "HTTP 599", durationMs: 12 }],
    [0, { ok: false, status: 0, error: "HTTP 0", durationMs: 12 }],
  ])("%i", (status, expected) => {
    expect(answeredAttempt(status, 12)).toEqual(expected);
  });

  it.each([
    [undefined, null],
    [0, null],
    [99, null],
    [100, 100],
    [503, 503],
    [599, 599],
    [600, null],
  ])("records status %s as %s", (status, recorded) => {
    expect(recordedStatus(status)).toBe(recorded);
  });
});

describe("unansweredAttemptError", () => {
  const refused = Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:9"), { code: "ECONNREFUSED" });
  it.each([
    ["node:http's error", refused, false, "connection refused"],
    [
      "fetch's error, the reason on its cause",
      new TypeError("fetch failed", { cause: refused }),
      false,
      "connection refused",
    ],
    ["an unknown DNS name", { code: "ENOTFOUND" }, false, "host not found"],
    [
      "a certificate problem",
      { code: "ERR_TLS_CERT_ALTNAME_INVALID" },
      false,
      "TLS error (ERR_TLS_CERT_ALTNAME_INVALID)",
    ],
    ["a code without a name of its own", { code: "EPROTO" }, false, "request failed (EPROTO)"],
    ["a browser's fetch, which says nothing", new TypeError("Failed to fetch"), false, "request failed"],
    ["a timeout, whatever the error", refused, true, "timeout"],
    ["no error object at all", undefined, false, "request failed"],
  ])("names %s", (_, err, timedOut, expected) => {
    expect(unansweredAttemptError(err, timedOut)).toBe(expected);
  });
});

describe("responseSnippet", () => {
  const utf8 = (text: string) => new TextEncoder().encode(text);

  it("keeps a short body and its content type as they came", () => {
    expect(responseSnippet(utf8('{"error":"bad signature"}'), "application/json")).toEqual({
      body: '{"error":"bad signature"}',
      contentType: "application/json",
    });
  });

  it("keeps the first 1,024 bytes of a longer body, whatever was read beyond them", () => {
    expect(WEBHOOK_RESPONSE_BODY_MAX_BYTES).toBe(1024);
    const body = "a".repeat(5000);
    expect(responseSnippet(utf8(body), "text/plain").body).toBe("a".repeat(1024));
  });

  it("drops a character the cut splits rather than garbling it", () => {
    // 1,023 ASCII bytes, then "é" (2 bytes) across the 1,024-byte line.
    const snippet = responseSnippet(utf8(`${"a".repeat(1023)}é and more`), null);
    expect(snippet.body).toBe("a".repeat(1023));
  });

  it("replaces bytes that are not UTF-8, and NUL, with U+FFFD", () => {
    const bytes = new Uint8Array([0x6f, 0x6b, 0xff, 0x00, 0x21]);
    expect(responseSnippet(bytes, "application/octet-stream").body).toBe("ok\uFFFD\uFFFD!");
  });

  it("keeps no body for an empty one, and no content type when none or an empty one was sent", () => {
    expect(responseSnippet(new Uint8Array(0), undefined)).toEqual({ body: null, contentType: null });
    expect(responseSnippet(null, "")).toEqual({ body: null, contentType: null });
  });

  it("cuts the content type at 200 characters", () => {
    expect(WEBHOOK_RESPONSE_CONTENT_TYPE_MAX_CHARS).toBe(200);
    const type = `text/plain; ${"x".repeat(300)}`;
    expect(responseSnippet(utf8("no"), type).contentType).toBe(type.slice(0, 200));
  });
});
