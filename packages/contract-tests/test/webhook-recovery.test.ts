// docs/product.md §6, sending events again: POST …/deliveries/{delivery_id}/retry re-sends one delivery's
// event, POST …/recover every event of a window the subscription receives (a background job,
// followed with GET …/recoveries/{recovery_id}). Re-sent deliveries keep the event id as
// `webhook-id`. And the proof of issue 17 item 6: a receiver down for longer than the whole retry
// schedule gets every missed event exactly once more from one recover call, whether it answered
// 500 all along or refused connections (nothing listening on its port) until it came back.
import { afterEach, describe, expect, it } from "vitest";
import type { Json } from "../src/client.ts";
import { order, type ReturnInput, returnOf } from "../src/fixtures.ts";
import { type Client, expectProblem, succeeded, useSystem } from "../src/harness.ts";
import { sleep, waitFor } from "../src/poll.ts";
import { targets } from "../src/targets.ts";
import { downReceiver, type Receiver, startReceiver, verifySignature } from "../src/webhook-receiver.ts";

/** Three attempts per sending, all within a fraction of a second: "longer than the schedule" is short. */
const SCHEDULE = "50ms,100ms";
const ATTEMPTS_PER_SENDING = 3;
const DAY_MS = 86_400_000;

const RECOVERY_KEYS = [
  "completed_at",
  "created_at",
  "events_queued",
  "id",
  "since",
  "status",
  "subscription_id",
  "until",
];

describe.each(targets)("sending webhook events again — $name", (target) => {
  const h = useSystem(target, { OISR_WEBHOOK_RETRY_SCHEDULE: SCHEDULE });
  const receivers: Receiver[] = [];
  afterEach(async () => {
    await Promise.all(receivers.splice(0).map((r) => r.close()));
  });

  async function receiver(respond?: Receiver["respond"]): Promise<Receiver> {
    const r = await startReceiver(respond);
    receivers.push(r);
    return r;
  }

  async function subscribe(c: Client, url: string, events = ["return.created"]) {
    const res = await c.post("/webhook_subscriptions", { url, events });
    expect(res.status, res.text).toBe(201);
    return res.body as { id: string; secret: string };
  }

  const patch = (c: Client, id: string, body: unknown) =>
    c.request("PATCH", `/webhook_subscriptions/${id}`, { body });

  /** Orders and a return for each, `count` of them: one return.created event each (nothing else). */
  async function returns(c: Client, count: number): Promise<string[]> {
    const orders = Array.from({ length: count }, () => order());
    succeeded(await c.ingestAndWait("/ingest/orders", { orders }));
    const rs = orders.map((o) => returnOf(o.external_id));
    succeeded(await c.ingestAndWait("/ingest/returns", { returns: rs }));
    return rs.map((r) => r.external_id);
  }

  /** A return updated after it was created: one return.updated event. */
  async function update(c: Client, r: ReturnInput) {
    succeeded(
      await c.ingestAndWait("/ingest/returns", {
        returns: [{ ...r, customer_note: "Label printed", source_updated_at: "2030-01-01T00:00:00Z" }],
      }),
    );
  }

  async function deliveries(c: Client, id: string): Promise<Json[]> {
    const all: Json[] = [];
    let cursor: string | undefined;
    for (;;) {
      const res = await c.get(
        `/webhook_subscriptions/${id}/deliveries?limit=100${cursor ? `&cursor=${cursor}` : ""}`,
      );
      expect(res.status, res.text).toBe(200);
      all.push(...res.body.data);
      if (!res.body.has_more) return all;
      cursor = encodeURIComponent(res.body.next_cursor);
    }
  }

  /** The ids GET /events lists, of these types. */
  async function eventIds(c: Client, ...types: string[]): Promise<string[]> {
    const ids: string[] = [];
    let cursor: string | undefined;
    for (;;) {
      const q = new URLSearchParams({ limit: "100" });
      for (const type of types) q.append("type", type);
      if (cursor) q.set("cursor", cursor);
      const res = await c.get(`/events?${q}`);
      expect(res.status, res.text).toBe(200);
      ids.push(...res.body.data.map((e: Json) => e.id));
      if (!res.body.has_more) return ids;
      cursor = res.body.next_cursor;
    }
  }

  /** Starts a recovery, checks the 202 and its Location, and follows it until it is completed. */
  async function recover(c: Client, id: string, body: Json): Promise<Json> {
    const started = await c.post(`/webhook_subscriptions/${id}/recover`, body);
    expect(started.status, started.text).toBe(202);
    expect(Object.keys(started.body).sort()).toEqual(RECOVERY_KEYS);
    expect(started.body).toMatchObject({ subscription_id: id, since: new Date(body.since).toISOString() });
    expect(started.body.id).toMatch(/^whr_/);
    expect(["running", "completed"]).toContain(started.body.status);
    const location = started.headers.get("location");
    expect(location).toBe(`/v2/webhook_subscriptions/${id}/recoveries/${started.body.id}`);
    return waitFor(
      async () => {
        const res = await c.get(location as string);
        expect(res.status, res.text).toBe(200);
        expect(res.body.id).toBe(started.body.id);
        return res.body.status === "completed" ? res.body : undefined;
      },
      "the recovery to complete",
      { timeoutMs: 20_000 },
    );
  }

  /** Webhook ids received (and answered 2xx) from index `from` on, with their counts. */
  function countsFrom(r: Receiver, from: number): Map<string, number> {
    const counts = new Map<string, number>();
    for (const d of r.received.slice(from)) {
      if (d.answered === undefined || d.answered >= 300) continue;
      const id = String(d.headers["webhook-id"]);
      counts.set(id, (counts.get(id) ?? 0) + 1);
    }
    return counts;
  }

  /** Waits until every sending of `listed` ran out (each attempt failed, the last with no next one). */
  function exhausted(c: Client, id: string, listed: string[]): Promise<Json[]> {
    return waitFor(
      async () => {
        const list = await deliveries(c, id);
        const settled =
          list.length === listed.length * ATTEMPTS_PER_SENDING &&
          list.every((d) => d.status === "failed") &&
          listed.every((e) => list.some((d) => d.event_id === e && d.next_attempt_at === null));
        return settled ? list : undefined;
      },
      "every attempt of the retry schedule to fail",
      { timeoutMs: 30_000 },
    );
  }

  /**
   * One recover from `since` to a receiver answering 2xx again: every event of `listed` arrives
   * exactly once more, validly signed, as GET /events lists it, and nothing else comes.
   */
  async function recoversEachOnce(
    c: Client,
    { id, secret }: { id: string; secret: string },
    r: Receiver,
    since: string,
    listed: string[],
  ) {
    const before = r.received.length;
    const done = await recover(c, id, { since });
    expect(done.events_queued).toBe(listed.length);
    const counts = await waitFor(
      async () => {
        const got = countsFrom(r, before);
        return got.size === listed.length ? got : undefined;
      },
      "every missed event to arrive",
      { timeoutMs: 30_000 },
    );
    // Nothing more comes: no duplicate, no late retry of the failed sendings.
    await sleep(500);
    expect(r.received.length - before).toBe(listed.length);
    expect([...counts.values()].every((n) => n === 1)).toBe(true);
    expect([...counts.keys()].sort()).toEqual([...listed].sort());
    for (const d of r.received.slice(before)) {
      expect(verifySignature(d, secret)).toBe(true);
      expect(JSON.parse(d.body).id).toBe(d.headers["webhook-id"]);
      // Each body delivered is the event as GET /events/{event_id} lists it.
      const event = await c.get(`/events/${d.headers["webhook-id"]}`);
      expect(event.status, event.text).toBe(200);
      expect(event.text).toBe(d.body);
    }
    const recovered = (await deliveries(c, id)).filter((d) => d.trigger === "recover");
    expect(recovered).toHaveLength(listed.length);
    expect(recovered.every((d) => d.status === "succeeded" && d.attempt === 1)).toBe(true);
  }

  describe("retry of a delivery", () => {
    it("is a new pending delivery (trigger retry, attempt 1) of the same event, received again with the same webhook-id, validly signed", async () => {
      const c = await h.account();
      const r = await receiver();
      const { id, secret } = await subscribe(c, r.url);
      await returns(c, 1);
      const first = await waitFor(
        async () => (await deliveries(c, id)).find((d) => d.status === "succeeded"),
        "the first delivery",
        { timeoutMs: 20_000 },
      );
      expect(first).toMatchObject({ trigger: "event", attempt: 1, retry_after_seconds: null });

      const res = await c.post(`/webhook_subscriptions/${id}/deliveries/${first.id}/retry`, undefined);
      expect(res.status, res.text).toBe(202);
      expect(res.body).toMatchObject({
        event_id: first.event_id,
        event_type: "return.created",
        trigger: "retry",
        attempt: 1,
        status: "pending",
        attempted_at: null,
        response_status: null,
      });
      expect(res.body.id).toMatch(/^whd_/);
      expect(res.body.id).not.toBe(first.id);

      const again = await waitFor(async () => r.received[1], "the event received again", {
        timeoutMs: 20_000,
      });
      expect(again.headers["webhook-id"]).toBe(first.event_id);
      expect(r.received[0]?.headers["webhook-id"]).toBe(first.event_id);
      expect(again.body).toBe(r.received[0]?.body);
      expect(verifySignature(again, secret)).toBe(true);
      const after = await waitFor(
        async () => {
          const list = await deliveries(c, id);
          return list.find((d) => d.id === res.body.id && d.status === "succeeded") ? list : undefined;
        },
        "the retry to be recorded",
        { timeoutMs: 20_000 },
      );
      expect(after.map((d) => [d.trigger, d.attempt, d.status])).toEqual([
        ["retry", 1, "succeeded"],
        ["event", 1, "succeeded"],
      ]);
    });

    it("is 404 for another subscription's delivery or an unknown one, and 409 on a disabled subscription except for webhook.test", async () => {
      const c = await h.account();
      const r = await receiver();
      const { id } = await subscribe(c, r.url);
      const other = await subscribe(c, r.url);
      await returns(c, 1);
      const delivery = await waitFor(async () => (await deliveries(c, id))[0], "a delivery", {
        timeoutMs: 20_000,
      });
      expectProblem(
        await c.post(`/webhook_subscriptions/${other.id}/deliveries/${delivery.id}/retry`, undefined),
        404,
        "not_found",
      );
      expectProblem(
        await c.post(
          `/webhook_subscriptions/${id}/deliveries/whd_01JPSG5BNA823QRHXQJF5YY1V2/retry`,
          undefined,
        ),
        404,
        "not_found",
      );
      const stranger = await h.account();
      expectProblem(
        await stranger.post(`/webhook_subscriptions/${id}/deliveries/${delivery.id}/retry`, undefined),
        404,
        "not_found",
      );

      const ping = await c.post(`/webhook_subscriptions/${id}/test`, undefined);
      expect(ping.status, ping.text).toBe(202);
      expect(ping.body.trigger).toBe("test");
      // Made before the subscription is disabled, which drops the attempts not made yet.
      await waitFor(
        async () => (await deliveries(c, id)).find((d) => d.id === ping.body.id && d.status === "succeeded"),
        "the test event delivered",
        { timeoutMs: 20_000 },
      );
      expect((await patch(c, id, { status: "disabled" })).status).toBe(200);
      expectProblem(
        await c.post(`/webhook_subscriptions/${id}/deliveries/${delivery.id}/retry`, undefined),
        409,
        "subscription_disabled",
      );
      const pingAgain = await c.post(
        `/webhook_subscriptions/${id}/deliveries/${ping.body.id}/retry`,
        undefined,
      );
      expect(pingAgain.status, pingAgain.text).toBe(202);
      expect(pingAgain.body).toMatchObject({ event_id: ping.body.event_id, trigger: "retry", attempt: 1 });
      await waitFor(
        async () => r.received.filter((d) => d.headers["webhook-id"] === ping.body.event_id)[1],
        "the test event received twice",
        { timeoutMs: 20_000 },
      );
    });
  });

  describe("recovery of a window", () => {
    it("refuses what it cannot serve: since too old, until not after since, a bad body, an unknown or disabled subscription", async () => {
      const c = await h.account();
      const { id } = await subscribe(c, "https://hooks.example.com/recover");
      const path = `/webhook_subscriptions/${id}/recover`;
      const now = Date.now();
      const tooOld = expectProblem(
        await c.post(path, { since: new Date(now - 31 * DAY_MS).toISOString() }),
        400,
        "validation_failed",
      );
      expect(tooOld.errors).toEqual([expect.objectContaining({ pointer: "/since", code: "out_of_range" })]);
      const since = new Date(now - 60_000).toISOString();
      for (const until of [since, new Date(now - 120_000).toISOString()]) {
        const res = expectProblem(await c.post(path, { since, until }), 400, "validation_failed");
        expect(res.errors).toEqual([expect.objectContaining({ pointer: "/until", code: "out_of_range" })]);
      }
      for (const body of [{}, { since: "yesterday" }, { since, extra: 1 }, [since]]) {
        expectProblem(await c.post(path, body), 400, "validation_failed");
      }
      expectProblem(await c.post(path, "{", { "content-type": "application/json" }), 400, "invalid_json");
      expectProblem(
        await c.post("/webhook_subscriptions/whs_01JN8S7QQT86WJ5VH5F0CXSRN7/recover", { since }),
        404,
        "not_found",
      );
      expectProblem(await (await h.account()).post(path, { since }), 404, "not_found");
      expect((await patch(c, id, { status: "disabled" })).status).toBe(200);
      expectProblem(await c.post(path, { since }), 409, "subscription_disabled");
      expectProblem(
        await c.get(`/webhook_subscriptions/${id}/recoveries/whr_01JQD2B8M4ZJ2W6Q7N3V5X9K1R`),
        404,
        "not_found",
      );
    });

    it("queues every event of the window the subscription receives, and only those; the recovery completes with their count", async () => {
      const c = await h.account();
      const r = await receiver();
      const { id, secret } = await subscribe(c, r.url, ["return.updated"]);
      const since = new Date(Date.now() - 1000).toISOString();
      const orders = Array.from({ length: 3 }, () => order());
      succeeded(await c.ingestAndWait("/ingest/orders", { orders }));
      const rs = orders.map((o) => returnOf(o.external_id));
      succeeded(await c.ingestAndWait("/ingest/returns", { returns: rs }));
      for (const ret of rs.slice(0, 2)) await update(c, ret);
      const updated = await eventIds(c, "return.updated");
      expect(updated).toHaveLength(2);
      await waitFor(
        async () => (countsFrom(r, 0).size === 2 ? true : undefined),
        "the two return.updated deliveries",
        { timeoutMs: 20_000 },
      );
      const before = r.received.length;

      const done = await recover(c, id, { since });
      expect(done).toMatchObject({ status: "completed", events_queued: 2 });
      expect(Date.parse(done.completed_at)).toBeGreaterThanOrEqual(Date.parse(done.created_at));
      expect(Date.parse(done.until)).toBeGreaterThan(Date.parse(since));
      await waitFor(
        async () => (countsFrom(r, before).size === 2 ? true : undefined),
        "the recovered deliveries",
        { timeoutMs: 20_000 },
      );
      await sleep(300);
      expect([...countsFrom(r, before).keys()].sort()).toEqual([...updated].sort());
      expect(r.received.length - before).toBe(2);
      for (const d of r.received.slice(before)) {
        expect(JSON.parse(d.body).type).toBe("return.updated");
        expect(verifySignature(d, secret)).toBe(true);
      }
      const recovered = (await deliveries(c, id)).filter((d) => d.trigger === "recover");
      expect(recovered.map((d) => d.event_id).sort()).toEqual([...updated].sort());

      // Another subscription cannot read it; a window before the events queues nothing.
      const other = await subscribe(c, r.url);
      expectProblem(
        await c.get(`/webhook_subscriptions/${other.id}/recoveries/${done.id}`),
        404,
        "not_found",
      );
      const empty = await recover(c, id, {
        since: new Date(Date.parse(since) - 60_000).toISOString(),
        until: since,
      });
      expect(empty.events_queued).toBe(0);
    });

    it("a subscription disabled while events happened is re-enabled, then recovered", async () => {
      const c = await h.account();
      const r = await receiver();
      const { id } = await subscribe(c, r.url);
      expect((await patch(c, id, { status: "disabled" })).status).toBe(200);
      const since = new Date(Date.now() - 1000).toISOString();
      await returns(c, 2);
      const missed = await eventIds(c, "return.created");
      expect(missed).toHaveLength(2);
      await sleep(300);
      expect(r.received).toHaveLength(0);

      expect((await patch(c, id, { status: "enabled" })).status).toBe(200);
      const done = await recover(c, id, { since });
      expect(done.events_queued).toBe(2);
      await waitFor(async () => (countsFrom(r, 0).size === 2 ? true : undefined), "the missed events", {
        timeoutMs: 20_000,
      });
      expect([...countsFrom(r, 0).keys()].sort()).toEqual([...missed].sort());
    });
  });

  it("the proof: a receiver down for longer than the whole retry schedule gets every missed event exactly once more from one recover, the same ids GET /events lists", async () => {
    const c = await h.account();
    let up = false;
    const r = await receiver(() => (up ? 200 : 500));
    const subscribed = ["return.created", "return.updated"];
    const subscription = await subscribe(c, r.url, subscribed);
    const since = new Date(Date.now() - 1000).toISOString();
    const external = await returns(c, 4);
    const o = order();
    succeeded(await c.ingestAndWait("/ingest/orders", { orders: [o] }));
    const ret = returnOf(o.external_id);
    succeeded(await c.ingestAndWait("/ingest/returns", { returns: [ret] }));
    await update(c, ret);
    const listed = await eventIds(c, ...subscribed);
    expect(listed).toHaveLength(external.length + 2);

    const failed = await exhausted(c, subscription.id, listed);
    expect(failed.every((d) => d.response_status === 500 && d.trigger === "event")).toBe(true);
    expect(countsFrom(r, 0).size).toBe(0);
    await sleep(300);
    expect(r.received).toHaveLength(listed.length * ATTEMPTS_PER_SENDING);

    up = true;
    await recoversEachOnce(c, subscription, r, since, listed);
    expect((await eventIds(c, ...subscribed)).sort()).toEqual([...listed].sort());
  });

  it('the proof with a receiver that refused connections (nothing listening on its port) for the whole retry schedule: each failed attempt is logged with no response status and its error "connection refused"; back on the same port, it gets every missed event exactly once more from one recover', async () => {
    const c = await h.account();
    const down = await downReceiver();
    const subscription = await subscribe(c, down.url);
    const since = new Date(Date.now() - 1000).toISOString();
    await returns(c, 3);
    const listed = await eventIds(c, "return.created");
    expect(listed).toHaveLength(3);

    const failed = await exhausted(c, subscription.id, listed);
    for (const d of failed) {
      expect(d).toMatchObject({
        trigger: "event",
        status: "failed",
        response_status: null,
        error: "connection refused",
        retry_after_seconds: null,
      });
      expect(d.attempted_at).not.toBeNull();
    }
    // Each sending made the whole schedule: attempts 1 to 3 of every event, the last with no next one.
    for (const e of listed) {
      const attempts = failed.filter((d) => d.event_id === e);
      expect(attempts.map((d) => d.attempt).sort((x, y) => x - y)).toEqual(
        Array.from({ length: ATTEMPTS_PER_SENDING }, (_, i) => i + 1),
      );
      expect(attempts.find((d) => d.attempt === ATTEMPTS_PER_SENDING)?.next_attempt_at).toBeNull();
    }

    const r = await down.start();
    receivers.push(r);
    // Back up, it receives nothing by itself: the schedule is over, no attempt is left to make.
    await sleep(300);
    expect(r.received).toHaveLength(0);
    await recoversEachOnce(c, subscription, r, since, listed);
  });
});
