import { describe, expect, it } from "vitest";
import { HttpProblem } from "./problems.ts";
import { recoveryLocation, recoveryWindow, retryRefused, toWebhookRecovery } from "./webhook-recovery.ts";

const NOW = new Date("2025-03-27T12:00:00.000Z");

function refusal(run: () => unknown) {
  try {
    run();
  } catch (err) {
    if (err instanceof HttpProblem) return { status: err.status, errors: err.errors };
    throw err;
  }
  throw new Error("not refused");
}

describe("recoveryWindow", () => {
  it("ends at the call's time when until is left out", () => {
    expect(recoveryWindow({ since: "2025-03-26T00:00:00Z" }, NOW, 30)).toEqual({
      since: new Date("2025-03-26T00:00:00Z"),
      until: NOW,
    });
  });

  it("cuts an until in the future to the call's time", () => {
    const w = recoveryWindow({ since: "2025-03-26T00:00:00Z", until: "2025-03-28T00:00:00Z" }, NOW, 30);
    expect(w.until).toEqual(NOW);
  });

  it("refuses a since in the future (the window would be empty)", () => {
    expect(refusal(() => recoveryWindow({ since: "2025-03-28T00:00:00Z" }, NOW, 30))).toMatchObject({
      status: 400,
    });
  });

  it.each([
    ["since before the retention period", { since: "2025-02-25T11:59:59Z" }, "/since"],
    ["until equal to since", { since: "2025-03-26T00:00:00Z", until: "2025-03-26T00:00:00Z" }, "/until"],
    ["until before since", { since: "2025-03-26T00:00:00Z", until: "2025-03-25T00:00:00Z" }, "/until"],
  ])("refuses %s with 400 at the member's pointer", (_, body, pointer) => {
    expect(refusal(() => recoveryWindow(body, NOW, 30))).toEqual({
      status: 400,
      errors: [expect.objectContaining({ pointer, code: "out_of_range" })],
    });
  });

  it("accepts since exactly at the retention limit", () => {
    expect(() => recoveryWindow({ since: "2025-02-25T12:00:00Z" }, NOW, 30)).not.toThrow();
  });
});

describe("retryRefused", () => {
  it.each([
    ["enabled", "return.created", false],
    ["disabled", "return.created", true],
    ["disabled", "request.failed", true],
    ["disabled", "webhook.test", false],
  ])("%s subscription, %s: refused %s", (status, type, refused) => {
    expect(retryRefused(status, type)).toBe(refused);
  });
});

describe("toWebhookRecovery", () => {
  it("answers ISO timestamps and a null completed_at while running", () => {
    expect(
      toWebhookRecovery({
        id: "whr_1",
        subscriptionId: "whs_1",
        since: "2025-03-26 00:00:00+00",
        until: new Date("2025-03-27T00:00:00Z"),
        status: "running",
        eventsQueued: 0,
        createdAt: Date.parse("2025-03-27T09:12:44.301Z"),
        completedAt: null,
      }),
    ).toEqual({
      id: "whr_1",
      subscription_id: "whs_1",
      since: "2025-03-26T00:00:00.000Z",
      until: "2025-03-27T00:00:00.000Z",
      status: "running",
      events_queued: 0,
      created_at: "2025-03-27T09:12:44.301Z",
      completed_at: null,
    });
  });
});

describe("recoveryLocation", () => {
  it("is under the API's base path, /v2 unless another is given", () => {
    expect(recoveryLocation("whs_1", "whr_1")).toBe("/v2/webhook_subscriptions/whs_1/recoveries/whr_1");
    expect(recoveryLocation("whs_1", "whr_1", "/api/v2")).toBe(
      "/api/v2/webhook_subscriptions/whs_1/recoveries/whr_1",
    );
  });
});
