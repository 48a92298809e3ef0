// docs/product.md §6, pull: GET /events is the account's events as a feed (the same objects as the webhook
// bodies, oldest first, a cursor that carries its filters and never misses a concurrent commit) and
// GET /events/{event_id} one of them; both in the `events_read` rate-limit scope (§8).
import { describe, expect, it } from "vitest";
import type { Json } from "../src/client.ts";
import { disposition, order, returnOf } from "../src/fixtures.ts";
import { type Client, expectProblem, RELAXED_LIMITS, succeeded, useSystem } from "../src/harness.ts";
import { waitFor } from "../src/poll.ts";
import { targets } from "../src/targets.ts";
import { type Receiver, startReceiver } from "../src/webhook-receiver.ts";

const ALL_TYPES = [
  "return.created",
  "return.updated",
  "return.disposition.created",
  "return.completed",
  "return.cancelled",
];

interface Page {
  data: Json[];
  next_cursor: string;
  has_more: boolean;
}

type Params = [string, string | undefined][];

/**
 * The return events only: every request also writes its request.<status> event into the feed
 * (request-events.test.ts), and these tests follow a return's life.
 */
const RETURNS: Params = ALL_TYPES.map((t) => ["type", t]);

const query = (params: Params) =>
  new URLSearchParams(params.filter((p): p is [string, string] => p[1] !== undefined)).toString();

async function page(c: Client, params: Params = []): Promise<Page> {
  const q = query(params);
  const res = await c.get(`/events${q ? `?${q}` : ""}`);
  expect(res.status, res.text).toBe(200);
  expect(Object.keys(res.body).sort()).toEqual(["data", "has_more", "next_cursor"]);
  expect(res.body.next_cursor).toEqual(expect.any(String));
  return res.body;
}

/** Follows next_cursor until has_more is false; every event and the final cursor. */
async function drain(c: Client, params: Params = [], cursor?: string) {
  const events: Json[] = [];
  for (let i = 0; i < 100; i++) {
    const p = await page(c, [...params, ["cursor", cursor]]);
    events.push(...p.data);
    cursor = p.next_cursor;
    if (!p.has_more) return { events, cursor };
  }
  throw new Error("the events feed did not end");
}

const types = (events: Json[]) => events.map((e) => e.type);

/**
 * An order, a return for it, an update of the return, and both its lines dispositioned one call at
 * a time: the return is created, updated, dispositioned twice and completed.
 */
async function returnLifecycle(c: Client): Promise<string> {
  const o = order();
  succeeded(await c.ingestAndWait("/ingest/orders", { orders: [o] }));
  const r = returnOf(o.external_id);
  succeeded(await c.ingestAndWait("/ingest/returns", { returns: [r] }));
  succeeded(
    await c.ingestAndWait("/ingest/returns", {
      returns: [{ ...r, customer_note: "Label printed", source_updated_at: "2030-01-01T00:00:00Z" }],
    }),
  );
  for (const line of ["L1", "L2"]) {
    succeeded(
      await c.ingestAndWait(`/ingest/returns/${r.external_id}/dispositions`, {
        dispositions: [disposition(line, 1)],
      }),
    );
  }
  return r.external_id;
}

const LIFECYCLE_TYPES = [
  "return.created",
  "return.updated",
  "return.updated",
  "return.disposition.created",
  "return.updated",
  "return.disposition.created",
  "return.completed",
];

/** The relaxed limits of every suite, with `events_read` relaxed too (the poller below is busy). */
const relaxed = (eventsRead: number) => ({
  OISR_RATE_LIMITS: JSON.stringify({
    ...JSON.parse(RELAXED_LIMITS.OISR_RATE_LIMITS),
    events_read: eventsRead,
  }),
});

describe.each(targets)("the events feed — $name", (target) => {
  const h = useSystem(target, relaxed(100_000));

  it("a return's life appears as its events, oldest first, each once, carrying the return at that version", async () => {
    const c = await h.account();
    expect(await page(c)).toEqual({ data: [], next_cursor: expect.any(String), has_more: false });
    const rma = await returnLifecycle(c);
    const { events } = await drain(c, RETURNS);
    expect(types(events)).toEqual(LIFECYCLE_TYPES);
    // Every event names the key whose ingest call caused it: the account's one (admin) key.
    const keyId = (await c.get("/api_keys")).body.data[0].id;
    for (const e of events) {
      expect(Object.keys(e).sort()).toEqual(["api_key_id", "created_at", "data", "id", "type"]);
      expect(e.api_key_id).toBe(keyId);
      expect(e.id).toMatch(/^evt_[0-9A-HJKMNP-TV-Z]{26}$/);
      expect(e.data.object.external_id).toBe(rma);
    }
    expect(new Set(events.map((e) => e.id)).size).toBe(events.length);
    const versions = events.map((e) => e.data.object.version);
    expect(versions).toEqual([...versions].sort((a, b) => a - b));
    const stamps = events.map((e) => Date.parse(e.created_at));
    expect(stamps).toEqual([...stamps].sort((a, b) => a - b));
    // The last event carries the return as GET /returns/{id} shows it now.
    expect(events.at(-1).data.object).toEqual((await c.get(`/returns/${rma}`)).body);
  });

  it("the events are the webhook deliveries: same ids, same bodies; webhook.test events are not listed", async () => {
    const c = await h.account();
    let receiver: Receiver | undefined;
    try {
      receiver = await startReceiver(() => 200);
      const sub = await c.post("/webhook_subscriptions", { url: receiver.url, events: ALL_TYPES });
      expect(sub.status, sub.text).toBe(201);
      await returnLifecycle(c);
      const { events } = await drain(c, RETURNS);
      expect(events).toHaveLength(LIFECYCLE_TYPES.length);
      const r = receiver;
      const deliveries = await waitFor(
        async () => {
          const byId = new Map(r.received.map((d) => [d.headers["webhook-id"] as string, d]));
          return events.every((e) => byId.has(e.id)) ? byId : undefined;
        },
        "a delivery of every listed event",
        { timeoutMs: 20_000 },
      );
      for (const e of events) {
        const delivered = deliveries.get(e.id);
        expect(JSON.parse(delivered?.body ?? "null")).toEqual(e);
        // GET /events/{id} answers the delivered bytes themselves.
        const one = await c.get(`/events/${e.id}`);
        expect(one.status, one.text).toBe(200);
        expect(one.text).toBe(delivered?.body);
      }
      expect(deliveries.size).toBe(events.length);

      // A test ping is a delivery of its own, not an event of the account.
      expect((await c.post(`/webhook_subscriptions/${sub.body.id}/test`, undefined)).status).toBe(202);
      const ping = await waitFor(
        async () => r.received.map((d) => JSON.parse(d.body)).find((b) => b.type === "webhook.test"),
        "the test ping",
        { timeoutMs: 20_000 },
      );
      expectProblem(await c.get(`/events/${ping.id}`), 404, "not_found");
      expect((await drain(c, RETURNS)).events.map((e) => e.id)).toEqual(events.map((e) => e.id));
    } finally {
      await receiver?.close();
    }
  });

  it("filters by one type, by several (repeated `type`), and by created_since", async () => {
    const c = await h.account();
    await returnLifecycle(c);
    const { events } = await drain(c);
    expect(types((await drain(c, [["type", "return.updated"]])).events)).toEqual([
      "return.updated",
      "return.updated",
      "return.updated",
    ]);
    const several = await drain(c, [
      ["type", "return.completed"],
      ["type", "return.created"],
    ]);
    expect(types(several.events)).toEqual(["return.created", "return.completed"]);
    expect((await drain(c, [["type", "return.cancelled"]])).events).toEqual([]);
    // created_since keeps events created at or after the instant.
    const third = events[2];
    const since = (await drain(c, [["created_since", third.created_at]])).events;
    expect(since.map((e) => e.id)).toEqual(
      events.filter((e) => Date.parse(e.created_at) >= Date.parse(third.created_at)).map((e) => e.id),
    );
    expect(since.map((e) => e.id)).toContain(third.id);
    expect(since.map((e) => e.id)).not.toContain(events[0].id);
    expect((await drain(c, [["created_since", "2999-01-01T00:00:00Z"]])).events).toEqual([]);
    expectProblem(await c.get("/events?type=return.shipped"), 400, "validation_failed");
    expectProblem(await c.get("/events?created_since=2025-02-30T00:00:00Z"), 400, "validation_failed");
  });

  it("pages of the feed add up to the whole feed once; a stored cursor gives only what came since", async () => {
    const c = await h.account();
    await returnLifecycle(c);
    const all = (await drain(c, RETURNS)).events;
    const pages: Page[] = [];
    let cursor: string | undefined;
    do {
      const p = await page(c, [...RETURNS, ["limit", "3"], ["cursor", cursor]]);
      pages.push(p);
      cursor = p.next_cursor;
    } while (pages.at(-1)?.has_more);
    expect(pages.map((p) => p.data.length)).toEqual([3, 3, 1]);
    expect(pages.flatMap((p) => p.data)).toEqual(all);
    // Nothing new: an empty page, with a cursor again.
    const stored = cursor as string;
    expect(await page(c, [["cursor", stored]])).toEqual({
      data: [],
      next_cursor: expect.any(String),
      has_more: false,
    });
    const o = order();
    succeeded(await c.ingestAndWait("/ingest/orders", { orders: [o] }));
    succeeded(await c.ingestAndWait("/ingest/returns", { returns: [returnOf(o.external_id)] }));
    // The cursor carries its type filter.
    const since = await drain(c, [], stored);
    expect(types(since.events)).toEqual(["return.created"]);
    expect(since.events[0].data.object.order_external_id).toBe(o.external_id);
  });

  it("a cursor carries its filters: other filters are 400 invalid_cursor; the same set in any order, or none, is fine", async () => {
    const c = await h.account();
    await returnLifecycle(c);
    const made: Params = [
      ["type", "return.updated"],
      ["type", "return.completed"],
    ];
    const first = await page(c, [...made, ["limit", "1"]]);
    expect(types(first.data)).toEqual(["return.updated"]);
    const cursor = first.next_cursor;
    for (const other of [
      [["type", "return.updated"]],
      [["type", "return.created"]],
      [["created_since", "2025-01-01T00:00:00Z"]],
      [...made, ["created_since", "2025-01-01T00:00:00Z"]],
    ] as Params[]) {
      expectProblem(await c.get(`/events?${query([...other, ["cursor", cursor]])}`), 400, "invalid_cursor");
    }
    const reordered = await drain(
      c,
      [
        ["type", "return.completed"],
        ["type", "return.updated"],
      ],
      cursor,
    );
    expect(types(reordered.events)).toEqual(["return.updated", "return.updated", "return.completed"]);
    // Without filters, the cursor's own apply.
    expect(types((await drain(c, [], cursor)).events)).toEqual(types(reordered.events));
    // A cursor of another account, or a tampered one, is refused too.
    const other = await h.account();
    expectProblem(await other.get(`/events?cursor=${encodeURIComponent(cursor)}`), 400, "invalid_cursor");
    expectProblem(
      await c.get(`/events?cursor=${encodeURIComponent(`${cursor}AAAA`)}`),
      400,
      "invalid_cursor",
    );
  });

  it("GET /events/{event_id} answers the account's event, and 404 for another account's or an unknown id", async () => {
    const [a, b] = [await h.account(), await h.account()];
    await returnLifecycle(a);
    const [event] = (await page(a, [["limit", "1"]])).data;
    const res = await a.get(`/events/${event.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual(event);
    expectProblem(await b.get(`/events/${event.id}`), 404, "not_found");
    expectProblem(await a.get("/events/evt_01JPSG5BNAAA3HC4D9C7NWCM7D"), 404, "not_found");
    expectProblem(await a.get("/events/not-an-event"), 404, "not_found");
    expect((await b.get("/events")).body.data).toEqual([]);
  });

  it("a poller storing its cursor while returns are written sees every event exactly once", async () => {
    const c = await h.account();
    const orders = Array.from({ length: 40 }, () => order());
    succeeded(await c.ingestAndWait("/ingest/orders", { orders }));
    const expected = new Set<string>();
    let writing = true;
    const writers = (async () => {
      // 8 calls of 5 returns, as fast as they are accepted; the worker commits them while the poller reads.
      const acks = [];
      for (let i = 0; i < 8; i++) {
        const returns = orders.slice(i * 5, i * 5 + 5).map((o) => returnOf(o.external_id));
        for (const r of returns) expected.add(r.external_id);
        acks.push(await c.ingest("/ingest/returns", { returns }));
      }
      for (const ack of acks) succeeded(await c.wait(ack.body.request_id));
      writing = false;
    })();
    const seen = new Map<string, number>();
    let cursor: string | undefined;
    let pagesWhileWriting = 0;
    const poller = waitFor(
      async () => {
        const stillWriting = writing;
        const { events, cursor: next } = await drain(c, [["limit", "4"]], cursor);
        cursor = next;
        if (stillWriting && events.length > 0) pagesWhileWriting++;
        for (const e of events) {
          seen.set(e.id, (seen.get(e.id) ?? 0) + 1);
          if (e.type === "return.created") expected.delete(e.data.object.external_id);
        }
        return !stillWriting && expected.size === 0 ? true : undefined;
      },
      "the poller to see every return.created",
      { intervalMs: 5, timeoutMs: 45_000 },
    );
    await Promise.all([writers, poller]);
    expect([...seen.values()].every((n) => n === 1)).toBe(true);
    const all = (await drain(c)).events;
    expect([...seen.keys()]).toEqual(all.map((e) => e.id));
    // 40 returns, and the request events of the order call and the 8 return calls.
    expect(all.filter((e) => e.type === "return.created")).toHaveLength(40);
    expect(all.filter((e) => e.type === "request.succeeded")).toHaveLength(9);
    expect(pagesWhileWriting).toBeGreaterThan(0);
  });
});

describe.each(targets)("the events_read rate-limit scope — $name", (target) => {
  const h = useSystem(target, relaxed(5));

  it("GET /events and GET /events/{id} count in events_read, with their headers, and the sixth call is 429", async () => {
    const c = await h.account();
    const remaining: (string | null)[] = [];
    for (const path of ["/events", "/events/evt_01JPSG5BNAAA3HC4D9C7NWCM7D", "/events?limit=1", "/events"]) {
      const res = await c.get(path);
      expect([200, 404]).toContain(res.status);
      expect(res.headers.get("x-ratelimit-limit")).toBe("5");
      expect(Number(res.headers.get("x-ratelimit-reset"))).toBeGreaterThan(Date.now() / 1000 - 1);
      remaining.push(res.headers.get("x-ratelimit-remaining"));
    }
    expect(remaining).toEqual(["4", "3", "2", "1"]);
    // Other read scopes are not charged for it.
    const orders = await c.get("/orders");
    expect(orders.status).toBe(200);
    expect(orders.headers.get("x-ratelimit-limit")).not.toBe("5");
    expect((await c.get("/events")).headers.get("x-ratelimit-remaining")).toBe("0");
    const refused = await c.get("/events");
    expectProblem(refused, 429, "rate_limited");
    expect(refused.headers.get("x-ratelimit-limit")).toBe("5");
    expect(refused.headers.get("x-ratelimit-remaining")).toBe("0");
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
  });
});
