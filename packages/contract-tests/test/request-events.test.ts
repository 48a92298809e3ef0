// docs/product.md §6, request events (issue 17 item 3): `request.succeeded`, `request.failed` and
// `request.dead`, opt-in per subscription; one event per request, written with its final status;
// `data.object` the request record with its per-item list left out for batches of more than 100.
// A subscriber learns that its requests finished without polling GET /requests/{id}.
import { describe, expect, it } from "vitest";
import type { Json } from "../src/client.ts";
import { order, returnOf } from "../src/fixtures.ts";
import { type Client, failedWith, RELAXED_LIMITS, succeeded, useSystem } from "../src/harness.ts";
import { waitFor } from "../src/poll.ts";
import { targets } from "../src/targets.ts";
import { type Receiver, startReceiver, verifySignature } from "../src/webhook-receiver.ts";

const REQUEST_TYPES = ["request.succeeded", "request.failed"];

/** Every event of the feed with the given types (GET /events, followed to its end). */
async function listed(c: Client, types: string[]): Promise<Json[]> {
  const events: Json[] = [];
  let cursor: string | undefined;
  for (let i = 0; i < 100; i++) {
    const q = new URLSearchParams(types.map((t) => ["type", t]));
    if (cursor) q.set("cursor", cursor);
    const res = await c.get(`/events?${q}`);
    expect(res.status, res.text).toBe(200);
    events.push(...res.body.data);
    cursor = res.body.next_cursor;
    if (!res.body.has_more) return events;
  }
  throw new Error("the events feed did not end");
}

/** What the event must carry of the record GET /requests/{id} answers (its items when ≤ 100). */
function expectAgrees(object: Json, record: Json): void {
  // The event leaves the retry links out: retried_by changes after it (decision 014).
  const { result, errors, retry_of: _of, retried_by: _by, ...rest } = record;
  expect(object).toEqual({
    ...rest,
    result:
      result === null
        ? null
        : record.item_count <= 100
          ? result
          : {
              created: result.created,
              updated: result.updated,
              unchanged: result.unchanged,
              stale: result.stale,
            },
    errors: errors.slice(0, 100),
    errors_total: errors.length,
    url: `/v2/requests/${record.request_id}`,
  });
}

describe.each(targets)("request events — $name", (target) => {
  const h = useSystem(target, {
    OISR_RATE_LIMITS: JSON.stringify({
      ...JSON.parse(RELAXED_LIMITS.OISR_RATE_LIMITS),
      events_read: 100_000,
    }),
  });

  it("a subscriber to request.succeeded and request.failed gets one signed event per request, the record GET /requests/{id} shows; a subscription without them gets none", async () => {
    const c = await h.account();
    const receivers: Receiver[] = [];
    try {
      const [requests, returns] = [await startReceiver(), await startReceiver()];
      receivers.push(requests, returns);
      const sub = await c.post("/webhook_subscriptions", { url: requests.url, events: REQUEST_TYPES });
      expect(sub.status, sub.text).toBe(201);
      const other = await c.post("/webhook_subscriptions", { url: returns.url, events: ["return.created"] });
      expect(other.status, other.text).toBe(201);

      // Several one-order calls, and a return for an order that does not exist (failed).
      const acks = [];
      for (let i = 0; i < 5; i++) acks.push(await c.ingest("/ingest/orders", { orders: [order()] }));
      acks.push(await c.ingest("/ingest/returns", { returns: [returnOf("NO-SUCH-ORDER")] }));
      const records: Json[] = [];
      for (const ack of acks) records.push(await c.wait(ack.body.request_id));
      for (const r of records.slice(0, 5)) succeeded(r);
      expect(failedWith(records[5])).toEqual([["/returns/0/order_id", "order_not_found"]]);

      const byRequest = await waitFor(
        async () => {
          const seen = new Map<string, Json>(
            requests.acknowledged().map((e) => [e.data.object.request_id as string, e]),
          );
          return records.every((r) => seen.has(r.request_id)) ? seen : undefined;
        },
        "an event of every request",
        { timeoutMs: 20_000 },
      );
      for (const delivery of requests.received) expect(verifySignature(delivery, sub.body.secret)).toBe(true);
      // Every delivery carries a W3C traceparent in the trace of the call that caused it
      // (docs/product.md §10), so a receiver can find that call by its X-Trace-Id.
      for (const delivery of requests.received) {
        const cause = records.find((r) => r.request_id === JSON.parse(delivery.body).data.object.request_id);
        expect(String(delivery.headers.traceparent)).toMatch(
          new RegExp(`^00-${cause?.trace_id}-[\\da-f]{16}-0[01]$`),
        );
      }
      // One event per request: every delivery of a request carries the same event id.
      const eventIds = new Map<string, Set<string>>();
      for (const e of requests.received.map((d) => JSON.parse(d.body))) {
        const ids = eventIds.get(e.data.object.request_id) ?? new Set();
        eventIds.set(e.data.object.request_id, ids.add(e.id));
      }
      expect([...eventIds.values()].map((ids) => ids.size)).toEqual(records.map(() => 1));
      expect(eventIds.size).toBe(records.length);
      for (const record of records) {
        const event = byRequest.get(record.request_id);
        expect(event?.type).toBe(`request.${record.status}`);
        expect(Object.keys(event ?? {}).sort()).toEqual(["api_key_id", "created_at", "data", "id", "type"]);
        expect(event.created_at).toBe(record.completed_at);
        expect(event.api_key_id).toBe(record.api_key_id);
        expect(record.api_key_id).toMatch(/^key_/);
        expectAgrees(event?.data.object, (await c.get(`/requests/${record.request_id}`)).body);
      }
      expect(byRequest.get(records[5].request_id)?.data.object.errors[0].code).toBe("order_not_found");

      // GET /events lists the same events, the same objects.
      const feed = await listed(c, REQUEST_TYPES);
      expect(feed.map((e) => e.id).sort()).toEqual([...byRequest.values()].map((e) => e.id).sort());
      for (const e of feed) expect(e).toEqual(byRequest.get(e.data.object.request_id));

      // The other subscription gets its return event and never a request event.
      const o = order();
      succeeded(await c.ingestAndWait("/ingest/orders", { orders: [o] }));
      succeeded(await c.ingestAndWait("/ingest/returns", { returns: [returnOf(o.external_id)] }));
      await waitFor(
        async () => (returns.acknowledged().some((e) => e.type === "return.created") ? true : undefined),
        "the return.created delivery",
        { timeoutMs: 20_000 },
      );
      expect(returns.received.map((d) => JSON.parse(d.body).type)).toEqual(["return.created"]);
      expect(requests.received.map((d) => JSON.parse(d.body).type)).not.toContain("return.created");
    } finally {
      await Promise.all(receivers.map((r) => r.close()));
    }
  });

  it("every request's event is listed by GET /events, subscribed or not; over 100 items, result.items is left out and url reads the record", async () => {
    const c = await h.account();
    const big = await c.ingestAndWait("/ingest/orders", {
      orders: Array.from({ length: 101 }, () => order()),
    });
    succeeded(big);
    const small = await c.ingestAndWait("/ingest/orders", {
      orders: Array.from({ length: 100 }, () => order()),
    });
    succeeded(small);
    const feed = await listed(c, ["request.succeeded"]);
    expect(feed.map((e) => e.data.object.request_id)).toEqual([big.request_id, small.request_id]);
    const [bigEvent, smallEvent] = feed;
    expect(bigEvent.data.object.result).toEqual({ created: 101, updated: 0, unchanged: 0, stale: 0 });
    expect(bigEvent.data.object.url).toBe(`/v2/requests/${big.request_id}`);
    expectAgrees(bigEvent.data.object, big);
    expect(smallEvent.data.object.result.items).toHaveLength(100);
    expectAgrees(smallEvent.data.object, small);
    // The link reads the whole record, every item listed.
    const whole = await c.get(bigEvent.data.object.url);
    expect(whole.status).toBe(200);
    expect(whole.body.result.items).toHaveLength(101);
    // And GET /events/{id} is the same event.
    expect((await c.get(`/events/${bigEvent.id}`)).body).toEqual(bigEvent);
  });
});
