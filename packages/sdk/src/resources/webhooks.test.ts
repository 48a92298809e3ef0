import { describe, expect, it } from "vitest";
import { ConflictError, ConnectionError, NotFoundError, ValidationError } from "../errors.ts";
import { client } from "../internal/client-fixtures.ts";
import { json, problem } from "../internal/test-utils.ts";

const SUB = "whs_01JN8S7QQT86WJ5VH5F0CXSRN7";
const recovery = (status: "running" | "completed", events_queued = 0) => ({
  id: "whr_01JQD2B8M4ZJ2W6Q7N3V5X9K1R",
  subscription_id: SUB,
  since: "2025-03-26T00:00:00.000Z",
  until: "2025-03-27T00:00:00.000Z",
  status,
  events_queued,
  created_at: "2025-03-27T09:12:44.301Z",
  completed_at: status === "completed" ? "2025-03-27T09:12:44.517Z" : null,
});
const delivery = {
  id: "whd_01JQE7K2M8Q4T0V6X1Z3B5D7F9",
  event_id: "evt_01JPSG5BNAAA3HC4D9C7NWCM7D",
  event_type: "return.created",
  trigger: "retry",
  attempt: 1,
  status: "pending",
  response_status: null,
  response_content_type: null,
  response_body: null,
  error: null,
  retry_after_seconds: null,
  duration_ms: null,
  attempted_at: null,
  next_attempt_at: "2025-03-28T09:00:00.000Z",
  created_at: "2025-03-28T09:00:00.000Z",
};
const pathOf = (url: string | undefined) => new URL(url ?? "").pathname;

describe("webhooks.recover", () => {
  it("POSTs the window and resolves to the running recovery, Location reachable with withResponse()", async () => {
    const location = `/v2/webhook_subscriptions/${SUB}/recoveries/${recovery("running").id}`;
    const { client: c, calls } = client({
      "POST /webhook_subscriptions/*/recover": json(recovery("running"), 202, { location }),
    });
    const window = { since: "2025-03-26T00:00:00Z", until: "2025-03-27T00:00:00Z" };
    const { data, response } = await c.webhooks.recover(SUB, window).withResponse();
    expect(data).toEqual(recovery("running"));
    expect(response.headers.get("location")).toBe(location);
    expect(calls).toHaveLength(1);
    expect(pathOf(calls[0]?.url)).toBe(`/v2/webhook_subscriptions/${SUB}/recover`);
    expect(JSON.parse(calls[0]?.body ?? "")).toEqual(window);
    // Not an ingest call: no Idempotency-Key, which would make network errors retried.
    expect(calls[0]?.headers.has("idempotency-key")).toBe(false);
  });

  it.each([
    [409, "subscription_disabled", ConflictError],
    [400, "validation_failed", ValidationError],
    [404, "not_found", NotFoundError],
  ] as const)("a %i %s is %O", async (status, code, type) => {
    const { client: c } = client({ "POST /webhook_subscriptions/*/recover": problem(status, code) });
    const err = await c.webhooks.recover(SUB, { since: "2025-03-26T00:00:00Z" }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(type);
    expect(err).toMatchObject({ status, code });
  });

  it("is sent once after a network error or a 500 (the server may have started it), again after a 503", async () => {
    const network = client({ "POST /webhook_subscriptions/*/recover": new TypeError("fetch failed") });
    const dropped = await network.client.webhooks
      .recover(SUB, { since: "2025-03-26T00:00:00Z" })
      .catch((e) => e);
    expect(dropped).toBeInstanceOf(ConnectionError);
    expect(network.calls).toHaveLength(1);

    const failed = client({ "POST /webhook_subscriptions/*/recover": problem(500, "internal_error") });
    await expect(
      failed.client.webhooks.recover(SUB, { since: "2025-03-26T00:00:00Z" }),
    ).rejects.toMatchObject({
      status: 500,
    });
    expect(failed.calls).toHaveLength(1);

    const busy = client({
      "POST /webhook_subscriptions/*/recover": [
        problem(503, "service_unavailable", { "retry-after": "0" }),
        json(recovery("running"), 202),
      ],
    });
    await expect(busy.client.webhooks.recover(SUB, { since: "2025-03-26T00:00:00Z" })).resolves.toMatchObject(
      {
        status: "running",
      },
    );
    expect(busy.calls).toHaveLength(2);
  });
});

describe("webhooks.getRecovery", () => {
  it("GETs the recovery under its subscription", async () => {
    const { client: c, calls } = client({
      "GET /webhook_subscriptions/*/recoveries/*": json(recovery("completed", 37)),
    });
    await expect(c.webhooks.getRecovery(SUB, recovery("running").id)).resolves.toEqual(
      recovery("completed", 37),
    );
    expect(pathOf(calls[0]?.url)).toBe(
      `/v2/webhook_subscriptions/${SUB}/recoveries/${recovery("running").id}`,
    );
  });
});

describe("webhooks.retryDelivery", () => {
  it("POSTs without a body and resolves to the new pending attempt", async () => {
    const { client: c, calls } = client({
      "POST /webhook_subscriptions/*/deliveries/*/retry": json(delivery, 202),
    });
    const { data, response } = await c.webhooks
      .retryDelivery(SUB, "whd_01JPSG5BNA823QRHXQJF5YY1V2")
      .withResponse();
    expect(data).toEqual(delivery);
    expect(response.status).toBe(202);
    expect(pathOf(calls[0]?.url)).toBe(
      `/v2/webhook_subscriptions/${SUB}/deliveries/whd_01JPSG5BNA823QRHXQJF5YY1V2/retry`,
    );
    expect(calls[0]?.body).toBe("");
  });

  it("a disabled subscription is ConflictError with code subscription_disabled; a network error is not retried", async () => {
    const disabled = client({
      "POST /webhook_subscriptions/*/deliveries/*/retry": problem(409, "subscription_disabled"),
    });
    const err = await disabled.client.webhooks.retryDelivery(SUB, "whd_1").catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConflictError);
    expect(err).toMatchObject({ code: "subscription_disabled" });

    const network = client({
      "POST /webhook_subscriptions/*/deliveries/*/retry": new TypeError("fetch failed"),
    });
    await expect(network.client.webhooks.retryDelivery(SUB, "whd_1")).rejects.toBeInstanceOf(ConnectionError);
    expect(network.calls).toHaveLength(1);
  });
});
