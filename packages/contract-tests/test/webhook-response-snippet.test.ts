// docs/limits.md, "What a webhook attempt keeps of the receiver's answer": each attempt that got an
// answer shows in the deliveries log the receiver's Content-Type (`response_content_type`) and the
// start of its body (`response_body`, the first 1,024 bytes), so a receiver's reason for refusing
// a delivery is visible without its logs; an attempt without a body shows null.
import { afterEach, describe, expect, it } from "vitest";
import type { Json } from "../src/client.ts";
import { type Client, useSystem } from "../src/harness.ts";
import { waitFor } from "../src/poll.ts";
import { targets } from "../src/targets.ts";
import { type Receiver, startReceiver } from "../src/webhook-receiver.ts";

describe.each(targets)("the receiver's answer in the deliveries log — $name", (target) => {
  const h = useSystem(target, { OISR_WEBHOOK_RETRY_SCHEDULE: "100ms" });
  const receivers: Receiver[] = [];
  afterEach(async () => {
    await Promise.all(receivers.splice(0).map((r) => r.close()));
  });

  async function receiver(respond: Receiver["respond"]): Promise<Receiver> {
    const r = await startReceiver(respond);
    receivers.push(r);
    return r;
  }

  /** A subscription to `url`, its test event sent, and the log once attempt 2 is recorded. */
  async function testedTwice(c: Client, url: string): Promise<Json[]> {
    const created = await c.post("/webhook_subscriptions", { url, events: ["return.created"] });
    expect(created.status, created.text).toBe(201);
    const id = created.body.id;
    const sent = await c.post(`/webhook_subscriptions/${id}/test`, undefined);
    expect(sent.status, sent.text).toBe(202);
    return waitFor(
      async () => {
        const res = await c.get(`/webhook_subscriptions/${id}/deliveries`);
        expect(res.status, res.text).toBe(200);
        const log: Json[] = res.body.data;
        return log.some((d) => d.attempt === 2 && d.status !== "pending") ? log : undefined;
      },
      "the failed attempt and its retry recorded",
      { timeoutMs: 20_000 },
    );
  }

  it('a 400 {"error":"bad signature"} shows as response_body and response_content_type; a 204 without a body, null', async () => {
    const c = await h.account();
    const r = await receiver((_req, i) =>
      i === 0
        ? { status: 400, headers: { "content-type": "application/json" }, body: '{"error":"bad signature"}' }
        : { status: 204, body: "" },
    );
    const log = await testedTwice(c, r.url);
    expect(log.find((d) => d.attempt === 1)).toMatchObject({
      status: "failed",
      response_status: 400,
      error: "HTTP 400 Bad Request",
      response_content_type: "application/json",
      response_body: '{"error":"bad signature"}',
    });
    expect(log.find((d) => d.attempt === 2)).toMatchObject({
      status: "succeeded",
      response_status: 204,
      response_body: null,
    });
  });

  it("keeps the first 1,024 bytes of a longer body", async () => {
    const c = await h.account();
    const long = `signature mismatch ${"#".repeat(5000)}`;
    const r = await receiver((_req, i) => (i === 0 ? { status: 400, body: long } : 200));
    const log = await testedTwice(c, r.url);
    expect(log.find((d) => d.attempt === 1)).toMatchObject({
      response_status: 400,
      response_content_type: "text/plain",
      response_body: long.slice(0, 1024),
    });
    expect(log.find((d) => d.attempt === 2)).toMatchObject({ response_status: 200, response_body: "ok" });
  });
});
