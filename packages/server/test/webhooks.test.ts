// Webhooks end to end: an in-process server (API, worker and dispatcher) delivering to a real
// HTTP receiver on 127.0.0.1. Runs on PGlite, and on PostgreSQL when DATABASE_URL is set.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { order } from "@oisr/contract/fixtures";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig, type RunningServer, startServer } from "../src/index.ts";
import {
  freshDatabaseEnv,
  hasValidSignature,
  type Receiver,
  sleep,
  startReceiver,
  waitFor,
} from "../src/webhooks/test-support.ts";

let server: RunningServer;
let drop: () => Promise<void>;
const receivers: Receiver[] = [];

beforeAll(async () => {
  const db = await freshDatabaseEnv();
  drop = db.drop;
  server = await startServer(
    loadConfig({
      PORT: "0",
      LOG_LEVEL: "silent",
      OISR_VALIDATE_RESPONSES: "1",
      OISR_WEBHOOK_ALLOW_PRIVATE_NETWORKS: "1",
      OISR_WEBHOOK_RETRY_SCHEDULE: "20ms,50ms",
      OISR_RATE_LIMITS: JSON.stringify({ webhooks: 100_000 }),
      ...db.env,
    }),
  );
});

afterAll(async () => {
  await server?.close();
  await Promise.all(receivers.map((r) => r.close()));
  await drop?.();
});

async function receiver(respond?: Receiver["respond"]): Promise<Receiver> {
  const r = await startReceiver(respond);
  receivers.push(r);
  return r;
}

async function account() {
  const { token } = await server.services.accounts.createAccount("webhooks-test");
  const call = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${server.url}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        ...(body === undefined ? {} : { "content-type": "application/json" }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : undefined };
  };
  return { call };
}
type Client = Awaited<ReturnType<typeof account>>;

let seq = 0;
function orderBody(externalId: string) {
  return { orders: [order({ external_id: externalId })] };
}
function returnBody(externalId: string, orderId: string) {
  return {
    returns: [
      {
        external_id: externalId,
        order_id: orderId,
        items: [{ line_id: "L1", quantity: 1, reason_code: "damaged" }],
        requested_at: "2025-03-05T08:00:00Z",
        source_updated_at: "2025-03-05T08:00:00Z",
      },
    ],
  };
}

/** Ingests and waits for the request's final status. */
async function ingest(client: Client, path: string, body: unknown): Promise<string> {
  const ack = await client.call("POST", path, body);
  expect(ack.status).toBe(202);
  return waitFor(async () => {
    const record = await client.call("GET", `/requests/${ack.body.request_id}`);
    return ["succeeded", "failed", "dead"].includes(record.body.status)
      ? (record.body.status as string)
      : undefined;
  }, "request to finish");
}

/** An order and a return for it; returns the return's external id. */
async function orderAndReturn(client: Client): Promise<string> {
  const n = ++seq;
  expect(await ingest(client, "/ingest/orders", orderBody(`SO-${n}`))).toBe("succeeded");
  expect(await ingest(client, "/ingest/returns", returnBody(`RMA-${n}`, `SO-${n}`))).toBe("succeeded");
  return `RMA-${n}`;
}

async function subscribe(client: Client, url: string, events = ["return.created"]) {
  const created = await client.call("POST", "/webhook_subscriptions", {
    url,
    events,
    description: "test receiver",
  });
  expect(created.status).toBe(201);
  return created.body as { id: string; secret: string };
}

describe("webhook subscriptions API", () => {
  it("creates, reads, lists, updates, rotates and deletes a subscription", async () => {
    const client = await account();
    const created = await client.call("POST", "/webhook_subscriptions", {
      url: "https://hooks.example.com/a",
      events: ["return.created", "return.completed"],
    });
    expect(created.status).toBe(201);
    expect(created.headers.get("location")).toBe(`/v2/webhook_subscriptions/${created.body.id}`);
    expect(created.body).toMatchObject({
      url: "https://hooks.example.com/a",
      events: ["return.created", "return.completed"],
      description: null,
      status: "enabled",
    });
    expect(created.body.secret).toMatch(/^whsec_/);
    const id = created.body.id as string;

    const got = await client.call("GET", `/webhook_subscriptions/${id}`);
    expect(got.status).toBe(200);
    expect(got.body.secret).toBeUndefined();

    const second = await client.call("POST", "/webhook_subscriptions", {
      url: "https://hooks.example.com/b",
      events: ["return.updated"],
    });
    const first = await client.call("GET", "/webhook_subscriptions?limit=1");
    expect(first.body.data.map((s: { id: string }) => s.id)).toEqual([second.body.id]);
    expect(first.body.has_more).toBe(true);
    const rest = await client.call("GET", `/webhook_subscriptions?limit=1&cursor=${first.body.next_cursor}`);
    expect(rest.body.data.map((s: { id: string }) => s.id)).toEqual([id]);
    expect(rest.body.has_more).toBe(false);

    const patched = await client.call("PATCH", `/webhook_subscriptions/${id}`, {
      description: "returns desk",
      status: "disabled",
    });
    expect(patched.body).toMatchObject({ description: "returns desk", status: "disabled" });
    const cleared = await client.call("PATCH", `/webhook_subscriptions/${id}`, { description: null });
    expect(cleared.body.description).toBeNull();

    const rotated = await client.call("POST", `/webhook_subscriptions/${id}/rotate_secret`);
    expect(rotated.status).toBe(200);
    expect(rotated.body.secret).toMatch(/^whsec_/);
    expect(rotated.body.secret).not.toBe(created.body.secret);

    expect((await client.call("DELETE", `/webhook_subscriptions/${id}`)).status).toBe(204);
    expect((await client.call("GET", `/webhook_subscriptions/${id}`)).status).toBe(404);
    expect((await client.call("DELETE", `/webhook_subscriptions/${id}`)).status).toBe(404);
  });

  it("answers another account's subscription like a missing one", async () => {
    const owner = await account();
    const other = await account();
    const { id } = await subscribe(owner, "https://hooks.example.com/owner");
    for (const [method, path, body] of [
      ["GET", `/webhook_subscriptions/${id}`],
      ["PATCH", `/webhook_subscriptions/${id}`, { description: "mine now" }],
      ["POST", `/webhook_subscriptions/${id}/rotate_secret`],
      ["POST", `/webhook_subscriptions/${id}/test`],
      ["GET", `/webhook_subscriptions/${id}/deliveries`],
      ["DELETE", `/webhook_subscriptions/${id}`],
    ] as const) {
      const res = await other.call(method, path, body);
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(res.body.code).toBe("not_found");
    }
    expect((await other.call("GET", "/webhook_subscriptions")).body.data).toEqual([]);
    expect((await owner.call("GET", `/webhook_subscriptions/${id}`)).body.description).toBe("test receiver");
  });
});

describe("webhook delivery", () => {
  it("delivers return.created, signed, to the account's subscription only", async () => {
    const client = await account();
    const bystander = await account();
    const hook = await receiver();
    const otherHook = await receiver();
    const { id, secret } = await subscribe(client, hook.url);
    await subscribe(bystander, otherHook.url);

    const rma = await orderAndReturn(client);
    const got = await waitFor(() => hook.received[0], "the return.created delivery");
    const event = JSON.parse(got.body);
    expect(event).toMatchObject({
      type: "return.created",
      data: { object: { external_id: rma, status: "requested" } },
    });
    expect(event.id).toMatch(/^evt_/);
    expect(got.headers["webhook-id"]).toBe(event.id);
    expect(got.headers["content-type"]).toBe("application/json");
    expect(Math.abs(Number(got.headers["webhook-timestamp"]) - Date.now() / 1000)).toBeLessThan(60);
    expect(hasValidSignature(got, secret)).toBe(true);

    const deliveries = await waitFor(async () => {
      const page = await client.call("GET", `/webhook_subscriptions/${id}/deliveries`);
      return page.body.data[0]?.status === "succeeded" ? page.body : undefined;
    }, "the attempt to be recorded");
    expect(deliveries.data).toEqual([
      expect.objectContaining({
        event_id: event.id,
        event_type: "return.created",
        attempt: 1,
        status: "succeeded",
        response_status: 204,
        error: null,
        next_attempt_at: null,
      }),
    ]);
    await sleep(200);
    expect(hook.received).toHaveLength(1);
    expect(otherHook.received).toHaveLength(0);
  });

  it("retries a failing receiver until it recovers", async () => {
    const client = await account();
    const hook = await receiver((_req, index) => (index === 0 ? 503 : 200));
    const { id, secret } = await subscribe(client, hook.url);
    await orderAndReturn(client);
    await waitFor(() => hook.received[1], "the retry");
    expect(hook.received[1]?.headers["webhook-id"]).toBe(hook.received[0]?.headers["webhook-id"]);
    expect(hasValidSignature(hook.received[1] as never, secret)).toBe(true);
    const page = await waitFor(async () => {
      const res = await client.call("GET", `/webhook_subscriptions/${id}/deliveries`);
      return res.body.data[0]?.status === "succeeded" ? res.body : undefined;
    }, "the retry to be recorded");
    expect(
      page.data.map((d: { attempt: number; status: string; response_status: number }) => [
        d.attempt,
        d.status,
        d.response_status,
      ]),
    ).toEqual([
      [2, "succeeded", 200],
      [1, "failed", 503],
    ]);
    expect(page.data[1].error).toBe("HTTP 503 Service Unavailable");
    expect(page.data[1].next_attempt_at).not.toBeNull();
  });

  it("gives up after the retry schedule", async () => {
    const client = await account();
    const hook = await receiver(() => 500);
    const { id } = await subscribe(client, hook.url);
    await orderAndReturn(client);
    // First attempt plus one retry per step of the 20ms,50ms schedule.
    const page = await waitFor(async () => {
      const res = await client.call("GET", `/webhook_subscriptions/${id}/deliveries`);
      return res.body.data.length === 3 && res.body.data[0].status === "failed" ? res.body : undefined;
    }, "three failed attempts");
    expect(page.data.map((d: { attempt: number }) => d.attempt)).toEqual([3, 2, 1]);
    expect(page.data[0].next_attempt_at).toBeNull();
    await sleep(200);
    expect(hook.received).toHaveLength(3);
    expect((await client.call("GET", `/webhook_subscriptions/${id}`)).body.status).toBe("enabled");
  });

  it("disables the subscription when the receiver answers 410", async () => {
    const client = await account();
    const hook = await receiver(() => 410);
    const { id } = await subscribe(client, hook.url, ["return.created", "return.updated"]);
    await orderAndReturn(client);
    await waitFor(
      async () =>
        (await client.call("GET", `/webhook_subscriptions/${id}`)).body.status === "disabled"
          ? true
          : undefined,
      "the subscription to be disabled",
    );
    await orderAndReturn(client);
    await sleep(300);
    expect(hook.received).toHaveLength(1);
    const page = await client.call("GET", `/webhook_subscriptions/${id}/deliveries`);
    expect(page.body.data).toEqual([
      expect.objectContaining({ status: "failed", response_status: 410, next_attempt_at: null }),
    ]);
  });

  it("shows the start of the receiver's answer in the deliveries log: its first 1,024 bytes and content type", async () => {
    const client = await account();
    const reason = `signature mismatch: is OISR_WEBHOOK_SECRET the secret of this subscription? ${"#".repeat(5000)}`;
    // A 400 with a 5 kB text body, then (attempt 2) a 204 with none.
    let answers = 0;
    const answering = createServer((req, res) => {
      req.resume();
      req.on("end", () => {
        if (answers++ === 0) res.writeHead(400, { "content-type": "text/plain; charset=utf-8" }).end(reason);
        else res.writeHead(204).end();
      });
    });
    await new Promise<void>((r) => answering.listen(0, "127.0.0.1", r));
    try {
      const { port } = answering.address() as AddressInfo;
      const { id } = await subscribe(client, `http://127.0.0.1:${port}/hooks`);
      await client.call("POST", `/webhook_subscriptions/${id}/test`);
      const page = await waitFor(async () => {
        const res = await client.call("GET", `/webhook_subscriptions/${id}/deliveries`);
        return res.body.data[0]?.status === "succeeded" ? res.body : undefined;
      }, "the failed attempt and its successful retry");
      expect(page.data).toEqual([
        expect.objectContaining({
          attempt: 2,
          response_status: 204,
          response_content_type: null,
          response_body: null,
        }),
        expect.objectContaining({
          attempt: 1,
          status: "failed",
          response_status: 400,
          error: "HTTP 400 Bad Request",
          response_content_type: "text/plain; charset=utf-8",
          response_body: reason.slice(0, 1024),
        }),
      ]);
    } finally {
      answering.closeAllConnections();
      await new Promise((r) => answering.close(r));
    }
  });

  it("delivers nothing for a request that failed", async () => {
    const client = await account();
    const hook = await receiver();
    await subscribe(client, hook.url, ["return.created", "return.updated"]);
    expect(await ingest(client, "/ingest/returns", returnBody("RMA-orphan", "SO-does-not-exist"))).toBe(
      "failed",
    );
    // Requests of one account apply in order: once this one's event arrives, the failed one is long done.
    const rma = await orderAndReturn(client);
    await waitFor(() => hook.received[0], "the later return's event");
    await sleep(200);
    expect(hook.received.map((r) => JSON.parse(r.body).data.object.external_id)).toEqual([rma]);
  });

  it("sends a test event, to this subscription only, signed with both secrets after a rotation", async () => {
    const client = await account();
    const hook = await receiver();
    const otherHook = await receiver();
    const { id, secret: oldSecret } = await subscribe(client, hook.url);
    await subscribe(client, otherHook.url);
    const rotated = await client.call("POST", `/webhook_subscriptions/${id}/rotate_secret`);
    await client.call("PATCH", `/webhook_subscriptions/${id}`, { status: "disabled" });

    const queued = await client.call("POST", `/webhook_subscriptions/${id}/test`);
    expect(queued.status).toBe(202);
    expect(queued.body).toMatchObject({
      event_type: "webhook.test",
      attempt: 1,
      status: "pending",
      attempted_at: null,
    });
    const got = await waitFor(() => hook.received[0], "the test event");
    expect(JSON.parse(got.body)).toMatchObject({
      id: queued.body.event_id,
      type: "webhook.test",
      data: { object: { subscription_id: id } },
    });
    const signatures = String(got.headers["webhook-signature"]).split(" ");
    expect(signatures).toHaveLength(2);
    expect(
      hasValidSignature(
        { ...got, headers: { ...got.headers, "webhook-signature": signatures[0] } },
        rotated.body.secret,
      ),
    ).toBe(true);
    expect(
      hasValidSignature(
        { ...got, headers: { ...got.headers, "webhook-signature": signatures[1] } },
        oldSecret,
      ),
    ).toBe(true);
    await sleep(200);
    expect(otherHook.received).toHaveLength(0);
  });
});

interface Delivery {
  id: string;
  event_id: string;
  event_type: string;
  trigger: string;
  attempt: number;
  status: string;
  retry_after_seconds: number | null;
}

async function deliveriesOf(client: Client, id: string): Promise<Delivery[]> {
  const res = await client.call("GET", `/webhook_subscriptions/${id}/deliveries?limit=100`);
  expect(res.status).toBe(200);
  return res.body.data;
}

describe("sending events again", () => {
  it("retries a delivery: a new sending of the same event, signed, with its own retries", async () => {
    const client = await account();
    // The first sending succeeds; the retry's first attempt fails once, its automatic retry succeeds.
    const hook = await receiver((_req, index) => (index === 1 ? 503 : 204));
    const { id, secret } = await subscribe(client, hook.url);
    await orderAndReturn(client);
    const [first] = await waitFor(async () => {
      const list = await deliveriesOf(client, id);
      return list[0]?.status === "succeeded" ? list : undefined;
    }, "the first delivery");
    expect(first).toMatchObject({ trigger: "event", attempt: 1, retry_after_seconds: null });

    const retried = await client.call("POST", `/webhook_subscriptions/${id}/deliveries/${first?.id}/retry`);
    expect(retried.status).toBe(202);
    expect(retried.body).toMatchObject({
      event_id: first?.event_id,
      event_type: "return.created",
      trigger: "retry",
      attempt: 1,
      status: "pending",
      attempted_at: null,
    });
    expect(retried.body.id).not.toBe(first?.id);
    await waitFor(() => hook.received[2], "the retry's second attempt");
    for (const got of hook.received) {
      expect(got.headers["webhook-id"]).toBe(first?.event_id);
      expect(hasValidSignature(got, secret)).toBe(true);
    }
    const list = await waitFor(async () => {
      const all = await deliveriesOf(client, id);
      return all[0]?.status === "succeeded" && all.length === 3 ? all : undefined;
    }, "the retry to succeed");
    expect(list.map((d) => [d.trigger, d.attempt, d.status])).toEqual([
      ["retry", 2, "succeeded"],
      ["retry", 1, "failed"],
      ["event", 1, "succeeded"],
    ]);
  });

  it("answers 404 for another subscription's delivery, 409 on a disabled subscription except for test events", async () => {
    const client = await account();
    const hook = await receiver();
    const { id } = await subscribe(client, hook.url);
    const other = await subscribe(client, hook.url);
    const test = await client.call("POST", `/webhook_subscriptions/${id}/test`);
    expect(test.body.trigger).toBe("test");
    await orderAndReturn(client);
    const event = await waitFor(
      async () => (await deliveriesOf(client, id)).find((d) => d.event_type === "return.created"),
      "the event's delivery",
    );

    const elsewhere = await client.call(
      "POST",
      `/webhook_subscriptions/${other.id}/deliveries/${event.id}/retry`,
    );
    expect(elsewhere.status).toBe(404);
    expect(elsewhere.body.code).toBe("not_found");
    const unknown = await client.call(
      "POST",
      `/webhook_subscriptions/${id}/deliveries/whd_01JPSG5BNA823QRHXQJF5YY1V2/retry`,
    );
    expect(unknown.status).toBe(404);
    const stranger = await account();
    expect(
      (await stranger.call("POST", `/webhook_subscriptions/${id}/deliveries/${event.id}/retry`)).status,
    ).toBe(404);

    await client.call("PATCH", `/webhook_subscriptions/${id}`, { status: "disabled" });
    const refused = await client.call("POST", `/webhook_subscriptions/${id}/deliveries/${event.id}/retry`);
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe("subscription_disabled");
    const ping = await client.call("POST", `/webhook_subscriptions/${id}/deliveries/${test.body.id}/retry`);
    expect(ping.status).toBe(202);
    expect(ping.body).toMatchObject({ event_id: test.body.event_id, trigger: "retry", attempt: 1 });
    await waitFor(
      () => hook.received.filter((r) => r.headers["webhook-id"] === test.body.event_id)[1],
      "the test event sent again",
    );
  });

  it("recovers a window: every subscribed event once more, then the recovery is completed", async () => {
    const client = await account();
    const hook = await receiver();
    const { id, secret } = await subscribe(client, hook.url, ["return.created"]);
    const since = new Date(Date.now() - 1000).toISOString();
    // Each makes a return.created (subscribed) and events of other types (not subscribed).
    await orderAndReturn(client);
    await orderAndReturn(client);
    await waitFor(() => hook.received[1], "the two first deliveries");
    const firstIds = hook.received.map((r) => r.headers["webhook-id"]);

    const started = await client.call("POST", `/webhook_subscriptions/${id}/recover`, { since });
    expect(started.status).toBe(202);
    expect(started.headers.get("location")).toBe(
      `/v2/webhook_subscriptions/${id}/recoveries/${started.body.id}`,
    );
    expect(started.body).toMatchObject({ subscription_id: id, since, status: "running", events_queued: 0 });
    expect(started.body.id).toMatch(/^whr_/);
    const done = await waitFor(async () => {
      const res = await client.call("GET", `/webhook_subscriptions/${id}/recoveries/${started.body.id}`);
      return res.body.status === "completed" ? res.body : undefined;
    }, "the recovery to complete");
    expect(done.events_queued).toBe(2);
    expect(done.completed_at).not.toBeNull();
    await waitFor(() => hook.received[3], "the recovered deliveries");
    await sleep(200);
    expect(hook.received).toHaveLength(4);
    expect(
      hook.received
        .slice(2)
        .map((r) => r.headers["webhook-id"])
        .sort(),
    ).toEqual([...firstIds].sort());
    expect(hook.received.every((r) => hasValidSignature(r, secret))).toBe(true);
    const recovered = (await deliveriesOf(client, id)).filter((d) => d.trigger === "recover");
    expect(recovered).toHaveLength(2);

    const other = await subscribe(client, hook.url);
    const foreign = await client.call(
      "GET",
      `/webhook_subscriptions/${other.id}/recoveries/${started.body.id}`,
    );
    expect(foreign.status).toBe(404);
    expect(foreign.body.code).toBe("not_found");
  });

  it("refuses a recovery window it cannot serve, and a disabled subscription", async () => {
    const client = await account();
    const { id } = await subscribe(client, "https://hooks.example.com/r");
    const old = new Date(Date.now() - 31 * 86_400_000).toISOString();
    const tooOld = await client.call("POST", `/webhook_subscriptions/${id}/recover`, { since: old });
    expect(tooOld.status).toBe(400);
    expect(tooOld.body.errors).toEqual([
      expect.objectContaining({ pointer: "/since", code: "out_of_range" }),
    ]);
    const now = new Date().toISOString();
    const empty = await client.call("POST", `/webhook_subscriptions/${id}/recover`, {
      since: now,
      until: now,
    });
    expect(empty.body.errors).toEqual([expect.objectContaining({ pointer: "/until", code: "out_of_range" })]);
    expect((await client.call("POST", `/webhook_subscriptions/${id}/recover`, {})).status).toBe(400);
    expect(
      (
        await client.call("POST", "/webhook_subscriptions/whs_01JN8S7QQT86WJ5VH5F0CXSRN7/recover", {
          since: now,
        })
      ).status,
    ).toBe(404);
    await client.call("PATCH", `/webhook_subscriptions/${id}`, { status: "disabled" });
    const disabled = await client.call("POST", `/webhook_subscriptions/${id}/recover`, { since: now });
    expect(disabled.status).toBe(409);
    expect(disabled.body.code).toBe("subscription_disabled");
  });
});

describe("webhook URL rules without OISR_WEBHOOK_ALLOW_PRIVATE_NETWORKS", () => {
  let strict: RunningServer;
  let dropStrict: () => Promise<void>;
  beforeAll(async () => {
    const db = await freshDatabaseEnv();
    dropStrict = db.drop;
    strict = await startServer(
      loadConfig({ PORT: "0", LOG_LEVEL: "silent", OISR_VALIDATE_RESPONSES: "1", ...db.env }),
    );
  });
  afterAll(async () => {
    await strict?.close();
    await dropStrict?.();
  });

  async function strictCall(token: string, method: string, path: string, body: unknown) {
    const res = await fetch(`${strict.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    return { status: res.status, body: await res.json() };
  }

  // IP literals only, so no test depends on real DNS (host names are covered by ssrf-guard.test.ts).
  it.each([
    "http://93.184.216.34/hooks",
    "https://127.0.0.1/hooks",
    "https://10.0.0.7/hooks",
    "https://172.16.0.1/hooks",
    "https://192.168.1.10/hooks",
    "https://169.254.169.254/latest/meta-data",
    "https://100.64.0.1/hooks",
    "https://[::1]/hooks",
    "https://[fd00::1]/hooks",
    "https://[fe80::1]/hooks",
    "https://[::ffff:127.0.0.1]/hooks",
  ])("refuses %s on create and update", async (url) => {
    const { token } = await strict.services.accounts.createAccount("strict");
    const created = await strictCall(token, "POST", "/webhook_subscriptions", {
      url,
      events: ["return.created"],
    });
    expect(created.status).toBe(400);
    expect(created.body).toMatchObject({
      code: "validation_failed",
      errors: [{ pointer: "/url", code: "url_not_allowed" }],
    });

    const ok = await strictCall(token, "POST", "/webhook_subscriptions", {
      url: "https://93.184.216.34/hooks",
      events: ["return.created"],
    });
    expect(ok.status).toBe(201);
    const patched = await strictCall(token, "PATCH", `/webhook_subscriptions/${ok.body.id}`, { url });
    expect(patched.status).toBe(400);
    expect(patched.body.errors[0].pointer).toBe("/url");
  });
});
