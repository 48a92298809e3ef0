// GET /events and GET /events/{event_id} on the mock: what only its clock can show (the retention
// cut) and what the contract suite cannot see from outside (the same objects as controls.events()).
import { describe, expect, it } from "vitest";
import { frozenMock, order, returnOf, tick } from "./support.ts";

describe("the events feed", () => {
  it("lists the recorded events oldest first, as controls.events() holds them, and finds each by id", async () => {
    const { mock, call, token } = frozenMock();
    await call("POST", "/ingest/orders", { orders: [order("A")] });
    await call("POST", "/ingest/returns", { returns: [returnOf("R1", "A")] });
    await call("POST", "/ingest/returns", {
      returns: [returnOf("R1", "A", { customer_note: "late", source_updated_at: "2025-03-16T10:00:00Z" })],
    });
    await tick();
    const recorded = mock.controls.events({ token });
    // Each request's event comes after the return events it caused, as on the server.
    expect(recorded.map((e) => e.type)).toEqual([
      "request.succeeded",
      "return.created",
      "request.succeeded",
      "return.updated",
      "request.succeeded",
    ]);
    const page = (await call("GET", "/events")).body;
    expect(page.data).toEqual(recorded);
    const [first] = recorded;
    const one = await call("GET", `/events/${first?.id}`);
    expect(one.status).toBe(200);
    expect(one.body).toEqual(first);
  });

  it("leaves out webhook.test events: not listed, and 404 by id", async () => {
    const { mock, call, token } = frozenMock();
    const sub = await call("POST", "/webhook_subscriptions", {
      url: "https://hooks.example.com/oisr",
      events: ["return.created"],
    });
    expect((await call("POST", `/webhook_subscriptions/${sub.body.id}/test`)).status).toBe(202);
    const [test] = mock.controls.events({ token, type: "webhook.test" });
    expect(test).toBeDefined();
    expect((await call("GET", "/events")).body.data).toEqual([]);
    expect((await call("GET", `/events/${test?.id}`)).status).toBe(404);
  });

  it("forgets events after the request retention period, in the feed and by id", async () => {
    const { mock, call, token } = frozenMock({ requestRetentionDays: 30 });
    await call("POST", "/ingest/orders", { orders: [order("A")] });
    await call("POST", "/ingest/returns", { returns: [returnOf("R1", "A")] });
    await tick();
    const [event] = mock.controls.events({ token });
    mock.controls.clock.advance(30 * 86_400_000);
    expect((await call("GET", `/events/${event?.id}`)).status).toBe(200);
    const { next_cursor: cursor } = (await call("GET", "/events")).body;
    mock.controls.clock.advance(1);
    expect((await call("GET", `/events/${event?.id}`)).status).toBe(404);
    expect((await call("GET", "/events")).body.data).toEqual([]);
    // A later event still comes after a stored cursor: positions do not shift when old ones go.
    await call("POST", "/ingest/returns", {
      returns: [returnOf("R1", "A", { customer_note: "later", source_updated_at: "2025-03-16T10:00:00Z" })],
    });
    await tick();
    const after = (await call("GET", `/events?cursor=${cursor}`)).body.data;
    expect(after.map((e: { type: string }) => e.type)).toEqual(["return.updated", "request.succeeded"]);
  });
});
