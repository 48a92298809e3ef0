// Webhook subscriptions and signed deliveries, end to end through msw: the mock's deliveries are
// fetches that this test's own msw handler receives.
import { createHmac } from "node:crypto";
import { HttpResponse, http } from "msw";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { setupMockServer } from "../src/node/index.ts";
import { fetchClient, order, returnOf } from "./support.ts";

const HOOK = "https://hooks.example.test/oisr";
const api = setupMockServer({ clock: { start: "2025-06-01T12:00:00Z", frozen: true } });
const token = "oisr_webhooks_test";
const call = fetchClient(api.baseUrl, token);

interface Received {
  headers: Headers;
  body: string;
}
let received: Received[] = [];
let answer = 204;

function receiver() {
  api.server.use(
    http.post(HOOK, async ({ request }) => {
      received.push({ headers: request.headers, body: await request.text() });
      return new HttpResponse(null, { status: answer });
    }),
  );
}

function verify(r: Received, secret: string): boolean {
  const key = Buffer.from(secret.slice("whsec_".length), "base64");
  const content = `${r.headers.get("webhook-id")}.${r.headers.get("webhook-timestamp")}.${r.body}`;
  const expected = `v1,${createHmac("sha256", key).update(content).digest("base64")}`;
  return (r.headers.get("webhook-signature") ?? "").split(" ").includes(expected);
}

beforeAll(() => api.listen({ onUnhandledFrame: "error" }));
afterEach(() => {
  api.controls.reset();
  api.server.resetHandlers();
  received = [];
  answer = 204;
});
afterAll(() => api.close());

async function subscribe(events = ["return.created", "return.updated", "return.completed"]) {
  const created = await call("POST", "/webhook_subscriptions", { url: HOOK, events, description: "ops" });
  expect(created.status).toBe(201);
  return created.body as { id: string; secret: string };
}

/** A return of every line of its own order (two returns of one order would over-return L2). */
async function createReturn(rma = "R1") {
  await call("POST", "/ingest/orders", { orders: [order(`O-${rma}`)] });
  await call("POST", "/ingest/returns", { returns: [returnOf(rma, `O-${rma}`)] });
  await api.controls.flush();
}

describe("webhook subscriptions", () => {
  it("creates, lists, updates and deletes; the secret shows only on create and rotate", async () => {
    const created = await subscribe();
    expect(created).toMatchObject({
      status: "enabled",
      description: "ops",
      secret: expect.stringMatching(/^whsec_/),
    });
    const got = await call("GET", `/webhook_subscriptions/${created.id}`);
    expect(got.body).not.toHaveProperty("secret");
    const patched = await call("PATCH", `/webhook_subscriptions/${created.id}`, {
      status: "disabled",
      description: null,
    });
    expect(patched.body).toMatchObject({ status: "disabled", description: null });
    const rotated = await call("POST", `/webhook_subscriptions/${created.id}/rotate_secret`);
    expect(rotated.body.secret).not.toBe(created.secret);
    expect((await call("GET", "/webhook_subscriptions")).body.data).toHaveLength(1);
    expect((await call("DELETE", `/webhook_subscriptions/${created.id}`)).status).toBe(204);
    expect((await call("GET", `/webhook_subscriptions/${created.id}`)).status).toBe(404);
  });

  it("refuses http and private URLs unless private networks are allowed", async () => {
    const refused = await call("POST", "/webhook_subscriptions", {
      url: "http://hooks.example.test/x",
      events: ["return.created"],
    });
    expect(refused.body).toMatchObject({
      code: "validation_failed",
      errors: [{ pointer: "/url", code: "url_not_allowed", message: "The URL must use https." }],
    });
    const loopback = await call("POST", "/webhook_subscriptions", {
      url: "https://127.0.0.1/x",
      events: ["return.created"],
    });
    expect(loopback.status).toBe(400);
  });
});

describe("events and deliveries", () => {
  it("records return events and delivers them signed per Standard Webhooks", async () => {
    receiver();
    const { id, secret } = await subscribe();
    await createReturn();
    // The requests' own request.succeeded events are recorded too (delivered only to subscribers).
    expect(
      api.controls
        .events({ token })
        .map((e) => e.type)
        .filter((t) => t.startsWith("return.")),
    ).toEqual(["return.created"]);
    expect(received).toHaveLength(1);
    const [delivery] = received as [Received];
    const event = JSON.parse(delivery.body);
    expect(event).toMatchObject({
      type: "return.created",
      data: { object: { external_id: "R1", version: 1 } },
    });
    expect(delivery.headers.get("webhook-id")).toBe(event.id);
    expect(delivery.headers.get("webhook-timestamp")).toBe(String(Date.parse("2025-06-01T12:00:00Z") / 1000));
    expect(verify(delivery, secret)).toBe(true);
    const attempts = (await call("GET", `/webhook_subscriptions/${id}/deliveries`)).body.data;
    expect(attempts).toEqual([
      expect.objectContaining({ event_id: event.id, status: "succeeded", response_status: 204, attempt: 1 }),
    ]);
  });

  it("retries a failed delivery on the schedule, on the mock clock", async () => {
    receiver();
    answer = 503;
    const { id } = await subscribe();
    await createReturn();
    expect(received).toHaveLength(1);
    answer = 200;
    api.controls.clock.advance(4_999);
    await api.controls.flush();
    expect(received).toHaveLength(1);
    api.controls.clock.advance(1);
    await api.controls.flush();
    expect(received).toHaveLength(2);
    expect(received[1]?.headers.get("webhook-id")).toBe(received[0]?.headers.get("webhook-id"));
    const attempts = (await call("GET", `/webhook_subscriptions/${id}/deliveries`)).body.data;
    expect(
      attempts.map((a: { attempt: number; status: string; error: string | null }) => [
        a.attempt,
        a.status,
        a.error,
      ]),
    ).toEqual([
      [2, "succeeded", null],
      [1, "failed", "HTTP 503 Service Unavailable"],
    ]);
  });

  it("shows the start of the receiver's answer: its first 1,024 bytes and content type, as the server does", async () => {
    const reason = `signature mismatch ${"#".repeat(5000)}`;
    api.server.use(
      http.post(HOOK, async ({ request }) => {
        received.push({ headers: request.headers, body: await request.text() });
        return received.length === 1
          ? new HttpResponse(reason, {
              status: 400,
              headers: { "content-type": "text/plain; charset=utf-8" },
            })
          : new HttpResponse(null, { status: 204 });
      }),
    );
    const { id } = await subscribe();
    await createReturn();
    api.controls.clock.advance(5_000);
    await api.controls.flush();
    expect(received).toHaveLength(2);
    const attempts = (await call("GET", `/webhook_subscriptions/${id}/deliveries`)).body.data;
    expect(attempts).toEqual([
      expect.objectContaining({
        attempt: 2,
        response_status: 204,
        response_content_type: null,
        response_body: null,
      }),
      expect.objectContaining({
        attempt: 1,
        response_status: 400,
        error: "HTTP 400 Bad Request",
        response_content_type: "text/plain; charset=utf-8",
        response_body: reason.slice(0, 1024),
      }),
    ]);
  });

  it("disables the subscription when the receiver answers 410 Gone", async () => {
    receiver();
    answer = 410;
    const { id } = await subscribe();
    await createReturn();
    expect((await call("GET", `/webhook_subscriptions/${id}`)).body.status).toBe("disabled");
  });

  it("signs with both secrets for a day after a rotation", async () => {
    receiver();
    const { id, secret } = await subscribe();
    const rotated = (await call("POST", `/webhook_subscriptions/${id}/rotate_secret`)).body.secret as string;
    const test = await call("POST", `/webhook_subscriptions/${id}/test`);
    expect(test).toMatchObject({
      status: 202,
      body: { event_type: "webhook.test", status: "pending", attempt: 1 },
    });
    await api.controls.flush();
    expect(received).toHaveLength(1);
    const [delivery] = received as [Received];
    expect(delivery.headers.get("webhook-signature")?.split(" ")).toHaveLength(2);
    expect(verify(delivery, secret) && verify(delivery, rotated)).toBe(true);
    expect(JSON.parse(delivery.body)).toMatchObject({
      type: "webhook.test",
      data: { object: { subscription_id: id } },
    });
  });

  it("delivers only event types the subscription chose, and only what happened after it was made", async () => {
    receiver();
    await createReturn("R0");
    await subscribe(["return.completed"]);
    await createReturn("R1");
    expect(received).toHaveLength(0);
    expect(api.controls.events({ type: "return.created" })).toHaveLength(2);
  });
});

describe("sending events again", () => {
  type Attempt = { id: string; event_id: string; trigger: string; attempt: number; status: string };
  const attemptsOf = async (id: string) =>
    (await call("GET", `/webhook_subscriptions/${id}/deliveries`)).body.data as Attempt[];

  it("retry sends the delivery's event again as a new sending: trigger retry, attempt 1, same webhook-id", async () => {
    receiver();
    const { id, secret } = await subscribe();
    await createReturn();
    const [first] = await attemptsOf(id);
    expect(first).toMatchObject({ trigger: "event", attempt: 1, status: "succeeded" });
    const retried = await call("POST", `/webhook_subscriptions/${id}/deliveries/${first?.id}/retry`);
    expect(retried).toMatchObject({
      status: 202,
      body: {
        event_id: first?.event_id,
        trigger: "retry",
        attempt: 1,
        status: "pending",
        retry_after_seconds: null,
        next_attempt_at: "2025-06-01T12:00:00.000Z",
      },
    });
    expect(retried.body.id).not.toBe(first?.id);
    await api.controls.flush();
    expect(received.map((r) => r.headers.get("webhook-id"))).toEqual([first?.event_id, first?.event_id]);
    expect(verify(received[1] as Received, secret)).toBe(true);
    expect(received[1]?.body).toBe(received[0]?.body);
  });

  it("a re-sending gets the whole retry schedule, its automatic retries keeping the trigger", async () => {
    receiver();
    const { id } = await subscribe();
    await createReturn();
    const [first] = await attemptsOf(id);
    answer = 503;
    await call("POST", `/webhook_subscriptions/${id}/deliveries/${first?.id}/retry`);
    await api.controls.flush();
    answer = 204;
    api.controls.clock.advance(5_000);
    await api.controls.flush();
    expect((await attemptsOf(id)).map((a) => [a.trigger, a.attempt, a.status])).toEqual([
      ["retry", 2, "succeeded"],
      ["retry", 1, "failed"],
      ["event", 1, "succeeded"],
    ]);
  });

  it("retry is 404 for another subscription's delivery, 409 on a disabled subscription except for test events", async () => {
    receiver();
    const a = await subscribe();
    const b = await subscribe();
    await createReturn();
    const [ofA] = await attemptsOf(a.id);
    const foreign = await call("POST", `/webhook_subscriptions/${b.id}/deliveries/${ofA?.id}/retry`);
    expect(foreign).toMatchObject({ status: 404, body: { code: "not_found" } });
    const test = (await call("POST", `/webhook_subscriptions/${a.id}/test`)).body as Attempt;
    await api.controls.flush(); // disabling drops attempts not yet made
    await call("PATCH", `/webhook_subscriptions/${a.id}`, { status: "disabled" });
    const refused = await call("POST", `/webhook_subscriptions/${a.id}/deliveries/${ofA?.id}/retry`);
    expect(refused).toMatchObject({ status: 409, body: { code: "subscription_disabled" } });
    const testAgain = await call("POST", `/webhook_subscriptions/${a.id}/deliveries/${test.id}/retry`);
    expect(testAgain).toMatchObject({ status: 202, body: { event_type: "webhook.test", trigger: "retry" } });
  });

  it("recover queues every subscribed event of the window once, running until the next tick", async () => {
    receiver();
    answer = 500;
    await createReturn("R0"); // before the subscription: recovered too (the window decides)
    const { id } = await subscribe(["return.created"]);
    await createReturn("R1");
    await call("POST", "/ingest/returns", {
      returns: [{ ...returnOf("R1", "O-R1"), status: "completed" }],
    });
    await api.controls.flush();
    await call("POST", `/webhook_subscriptions/${id}/test`); // never recovered
    api.controls.clock.advance(60_000); // the first automatic retries fail too
    await api.controls.flush();
    answer = 204;
    received = [];
    const started = await call("POST", `/webhook_subscriptions/${id}/recover`, {
      since: "2025-06-01T11:00:00Z",
    });
    expect(started).toMatchObject({
      status: 202,
      body: {
        subscription_id: id,
        since: "2025-06-01T11:00:00.000Z",
        until: "2025-06-01T12:01:00.000Z",
        status: "running",
        events_queued: 0,
        completed_at: null,
      },
    });
    const location = started.headers.get("location");
    expect(location).toBe(`/v2/webhook_subscriptions/${id}/recoveries/${started.body.id}`);
    await api.controls.flush();
    const done = await call("GET", (location as string).slice("/v2".length));
    expect(done).toMatchObject({
      status: 200,
      body: { status: "completed", events_queued: 2, completed_at: "2025-06-01T12:01:00.000Z" },
    });
    const created = api.controls.events({ type: "return.created" }).map((e) => e.id);
    expect(created).toHaveLength(2);
    expect(received.map((r) => r.headers.get("webhook-id")).sort()).toEqual(created.sort());
    const recovered = (await attemptsOf(id)).filter((a) => a.trigger === "recover");
    expect(recovered.map((a) => [a.attempt, a.status])).toEqual([
      [1, "succeeded"],
      [1, "succeeded"],
    ]);
  });

  it("recover refuses a window out of range (400), a disabled subscription (409), and works once re-enabled", async () => {
    const { id } = await subscribe();
    const tooOld = await call("POST", `/webhook_subscriptions/${id}/recover`, {
      since: "2025-05-01T11:59:59Z",
    });
    expect(tooOld).toMatchObject({
      status: 400,
      body: { errors: [{ pointer: "/since", code: "out_of_range" }] },
    });
    const empty = await call("POST", `/webhook_subscriptions/${id}/recover`, {
      since: "2025-06-01T11:00:00Z",
      until: "2025-06-01T11:00:00Z",
    });
    expect(empty).toMatchObject({ status: 400, body: { errors: [{ pointer: "/until" }] } });
    const noBody = await call("POST", `/webhook_subscriptions/${id}/recover`, {});
    expect(noBody.status).toBe(400);
    await call("PATCH", `/webhook_subscriptions/${id}`, { status: "disabled" });
    const window = { since: "2025-06-01T11:00:00Z" };
    expect(await call("POST", `/webhook_subscriptions/${id}/recover`, window)).toMatchObject({
      status: 409,
      body: { code: "subscription_disabled" },
    });
    await call("PATCH", `/webhook_subscriptions/${id}`, { status: "enabled" });
    expect((await call("POST", `/webhook_subscriptions/${id}/recover`, window)).status).toBe(202);
    expect((await call("POST", "/webhook_subscriptions/whs_nope/recover", window)).status).toBe(404);
  });

  it("a recovery is 404 under another subscription; a subscription disabled before it runs completes it empty", async () => {
    await createReturn();
    const a = await subscribe();
    const b = await subscribe();
    const started = (
      await call("POST", `/webhook_subscriptions/${a.id}/recover`, { since: "2025-06-01T11:00:00Z" })
    ).body as { id: string };
    expect((await call("GET", `/webhook_subscriptions/${b.id}/recoveries/${started.id}`)).status).toBe(404);
    await call("PATCH", `/webhook_subscriptions/${a.id}`, { status: "disabled" });
    await api.controls.flush();
    expect((await call("GET", `/webhook_subscriptions/${a.id}/recoveries/${started.id}`)).body).toMatchObject(
      {
        status: "completed",
        events_queued: 0,
      },
    );
  });
});
