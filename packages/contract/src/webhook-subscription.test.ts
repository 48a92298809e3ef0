import { describe, expect, it } from "vitest";
import { problemBody } from "./problems.ts";
import { classifyWebhookUrl } from "./url-classifier.ts";
import {
  type SubscriptionChange,
  subscriptionChange,
  subscriptionNotFound,
  testEventObject,
  toWebhookDelivery,
  toWebhookSubscription,
  uniqueEvents,
  type WebhookSubscriptionStatus,
  type WebhookSubscriptionUpdate,
  webhookEventBody,
  webhookUrlNotAllowed,
} from "./webhook-subscription.ts";

const CREATED = "2025-06-01T12:00:00.000Z";
const UPDATED = "2025-06-02T08:30:00.000Z";

describe("toWebhookSubscription", () => {
  // The server's rows carry timestamps as text (PostgreSQL's or ISO), the mock's records as epoch ms.
  const record = {
    id: "whs_01JN8S7QQT86WJ5VH5F0CXSRN7",
    url: "https://hooks.example.com/oisr",
    events: ["return.created", "return.completed"],
    description: null,
    status: "enabled" as const,
    secret: "whsec_buDs2IMBU7kJbEBTDxo0v24P9EoRjWTF1Bb+ZISQE+E=",
  };
  const expected = {
    id: record.id,
    url: record.url,
    events: record.events,
    description: null,
    status: "enabled",
    created_at: CREATED,
    updated_at: UPDATED,
  };

  it.each([
    ["ISO text", CREATED, UPDATED],
    ["PostgreSQL text", "2025-06-01 12:00:00+00", "2025-06-02 08:30:00+00"],
    ["epoch ms", Date.parse(CREATED), Date.parse(UPDATED)],
    ["Date", new Date(CREATED), new Date(UPDATED)],
  ])("answers timestamps given as %s in ISO form, without the secret", (_name, createdAt, updatedAt) => {
    const answer = toWebhookSubscription({ ...record, createdAt, updatedAt });
    expect(answer).toEqual(expected);
    expect(answer).not.toHaveProperty("secret");
  });

  it("shows the secret, before the timestamps, only when asked (create, rotate)", () => {
    const answer = toWebhookSubscription({ ...record, createdAt: CREATED, updatedAt: UPDATED }, true);
    expect(answer).toEqual({ ...expected, secret: record.secret });
    expect(Object.keys(answer)).toEqual([
      "id",
      "url",
      "events",
      "description",
      "status",
      "secret",
      "created_at",
      "updated_at",
    ]);
  });
});

describe("toWebhookDelivery", () => {
  it("answers an attempt made, with its outcome", () => {
    expect(
      toWebhookDelivery({
        id: "whd_1",
        eventId: "evt_1",
        eventType: "return.created",
        trigger: "recover",
        attempt: 2,
        status: "failed",
        responseStatus: 503,
        responseContentType: "text/plain",
        responseBody: "down for maintenance",
        error: "HTTP 503 Service Unavailable",
        retryAfterSeconds: 120,
        durationMs: 41,
        attemptedAt: Date.parse(UPDATED),
        nextAttemptAt: "2025-06-02 08:35:00+00",
        createdAt: CREATED,
      }),
    ).toEqual({
      id: "whd_1",
      event_id: "evt_1",
      event_type: "return.created",
      trigger: "recover",
      attempt: 2,
      status: "failed",
      response_status: 503,
      response_content_type: "text/plain",
      response_body: "down for maintenance",
      error: "HTTP 503 Service Unavailable",
      retry_after_seconds: 120,
      duration_ms: 41,
      attempted_at: UPDATED,
      next_attempt_at: "2025-06-02T08:35:00.000Z",
      created_at: CREATED,
    });
  });

  it("answers an attempt not yet made with nulls", () => {
    expect(
      toWebhookDelivery({
        id: "whd_2",
        eventId: "evt_2",
        eventType: "webhook.test",
        trigger: "test",
        attempt: 1,
        status: "pending",
        responseStatus: null,
        responseContentType: null,
        responseBody: null,
        error: null,
        retryAfterSeconds: null,
        durationMs: null,
        attemptedAt: null,
        nextAttemptAt: null,
        createdAt: new Date(CREATED),
      }),
    ).toMatchObject({
      status: "pending",
      response_content_type: null,
      response_body: null,
      attempted_at: null,
      next_attempt_at: null,
      created_at: CREATED,
    });
  });
});

describe("subscriptionChange", () => {
  it.each<[string, WebhookSubscriptionStatus, WebhookSubscriptionUpdate, SubscriptionChange]>([
    ["nothing", "enabled", {}, {}],
    ["the URL", "enabled", { url: "https://b.example.com/" }, { url: "https://b.example.com/" }],
    [
      "the events, each once",
      "enabled",
      { events: ["return.created", "return.updated", "return.created"] },
      { events: ["return.created", "return.updated"] },
    ],
    ["a cleared description", "enabled", { description: null }, { description: null }],
    ["disabling", "enabled", { status: "disabled" }, { status: "disabled" }],
    ["re-enabling", "disabled", { status: "enabled" }, { status: "enabled" }],
    ["enabling an enabled one: no status change", "enabled", { status: "enabled" }, {}],
    ["disabling a disabled one: no status change", "disabled", { status: "disabled" }, {}],
  ])("%s", (_name, current, patch, change) => {
    expect(subscriptionChange(current, patch)).toEqual(change);
  });
});

describe("events", () => {
  it("keeps each event type once, in the order first given", () => {
    expect(uniqueEvents(["b", "a", "b", "c", "a"])).toEqual(["b", "a", "c"]);
  });

  it("shapes an event body, and the test event's object", () => {
    expect(
      webhookEventBody("evt_1", "webhook.test", Date.parse(CREATED), "key_1", testEventObject("whs_1")),
    ).toEqual({
      id: "evt_1",
      type: "webhook.test",
      created_at: CREATED,
      api_key_id: "key_1",
      data: { object: { subscription_id: "whs_1", message: "This is a test event from OISR." } },
    });
  });
});

describe("problems", () => {
  it("answers another account's or a missing subscription as 404 not_found", () => {
    expect(problemBody(subscriptionNotFound("whs_1"), "t")).toMatchObject({
      status: 404,
      code: "not_found",
      detail: "No webhook subscription whs_1 in this account.",
    });
  });

  it("answers a refused URL as 400 validation_failed on /url, with the classifier's reason", () => {
    const verdict = classifyWebhookUrl("https://10.0.0.1/h", false);
    if (verdict.ok) throw new Error("10.0.0.1 must be refused");
    expect(problemBody(webhookUrlNotAllowed(verdict.reason), "t")).toMatchObject({
      status: 400,
      code: "validation_failed",
      detail: "The webhook URL is not allowed.",
      errors: [
        {
          pointer: "/url",
          code: "url_not_allowed",
          message:
            'The URL host "10.0.0.1" resolves to 10.0.0.1, a private, loopback, link-local or reserved address.',
        },
      ],
    });
  });
});
