// The request lifecycle on the mock clock: pending → processing → succeeded | failed | dead,
// per-account FIFO, and the records a caller polls.
import { describe, expect, it } from "vitest";
import { disposition, frozenMock, order, returnOf, tick } from "./support.ts";

describe("request lifecycle", () => {
  it("stays pending for processingDelayMs and processing for processingDurationMs, on the mock clock", async () => {
    const { mock, call } = frozenMock({ processingDelayMs: 1000, processingDurationMs: 500 });
    const ack = await call("POST", "/ingest/orders", { orders: [order("A")] });
    expect(ack.status).toBe(202);
    expect(ack.headers.get("location")).toBe(`/v2/requests/${ack.body.request_id}`);
    expect(ack.headers.get("retry-after")).toBe("1");
    const record = async () => (await call("GET", `/requests/${ack.body.request_id}`)).body;

    await tick();
    expect(await record()).toMatchObject({ status: "pending", attempts: 0, started_at: null, item_count: 1 });
    mock.controls.clock.advance(999);
    await tick();
    expect((await record()).status).toBe("pending");

    mock.controls.clock.advance(1);
    await tick();
    expect(await record()).toMatchObject({
      status: "processing",
      attempts: 1,
      started_at: "2025-06-01T12:00:01.000Z",
    });
    expect((await call("GET", "/orders/A")).status).toBe(404);

    mock.controls.clock.advance(500);
    await tick();
    const done = await record();
    expect(done).toMatchObject({
      status: "succeeded",
      completed_at: "2025-06-01T12:00:01.500Z",
      result: {
        created: 1,
        updated: 0,
        unchanged: 0,
        stale: 0,
        items: [{ index: 0, type: "order", outcome: "created" }],
      },
      errors: [],
      error: null,
    });
    const stored = await call("GET", "/orders/A");
    expect(stored.body).toMatchObject({
      id: done.result.items[0].id,
      external_id: "A",
      status: "open",
      version: 1,
    });
  });

  it("processes on the next tick by default", async () => {
    const { call } = frozenMock();
    const ack = await call("POST", "/ingest/orders", { orders: [order("A")] });
    expect((await call("GET", `/requests/${ack.body.request_id}`)).body.status).toBe("pending");
    await tick();
    expect((await call("GET", `/requests/${ack.body.request_id}`)).body.status).toBe("succeeded");
  });

  it("applies one account's requests in acceptance order: order, return, dispositions back to back", async () => {
    const { call } = frozenMock({ processingDelayMs: 0 });
    const acks = [
      await call("POST", "/ingest/orders", { orders: [order("A")] }),
      await call("POST", "/ingest/returns", { returns: [returnOf("RMA-1", "A")] }),
      await call("POST", "/ingest/returns/RMA-1/dispositions", {
        dispositions: [disposition("D1"), disposition("D2", "L2")],
      }),
    ];
    await tick();
    for (const ack of acks)
      expect((await call("GET", `/requests/${ack.body.request_id}`)).body.status).toBe("succeeded");
    const ret = (await call("GET", "/returns/RMA-1")).body;
    expect(ret).toMatchObject({
      status: "completed",
      order_external_id: "A",
      items: [{ quantity_dispositioned: 1 }, { quantity_dispositioned: 1 }],
    });
    expect((await call("GET", "/orders/A")).body.lines[0].quantity_returned).toBe(1);
  });

  it("records a business-rule rejection as failed, with pointers, and applies nothing", async () => {
    const { call } = frozenMock();
    await call("POST", "/ingest/orders", { orders: [order("A")] });
    const ack = await call("POST", "/ingest/shipments", {
      shipments: [
        {
          external_id: "S1",
          order_id: "A",
          carrier: "UPS",
          shipped_at: "2025-03-15T10:00:00Z",
          lines: [{ line_id: "L1", quantity: 1 }],
        },
        {
          external_id: "S2",
          order_id: "nope",
          carrier: "UPS",
          shipped_at: "2025-03-15T10:00:00Z",
          lines: [{ line_id: "L1", quantity: 1 }],
        },
      ],
    });
    await tick();
    const record = (await call("GET", `/requests/${ack.body.request_id}`)).body;
    expect(record).toMatchObject({ status: "failed", result: null, error: null });
    expect(record.errors).toEqual([
      expect.objectContaining({ pointer: "/shipments/1/order_id", code: "order_not_found" }),
    ]);
    expect((await call("GET", "/orders/A")).body).toMatchObject({ status: "open", shipments: [] });
  });

  it("keeps requests pending while paused; flush runs everything now", async () => {
    const { mock, call } = frozenMock({ processingDelayMs: 60_000 });
    mock.controls.pauseProcessing();
    const ack = await call("POST", "/ingest/orders", { orders: [order("A")] });
    mock.controls.clock.advance(120_000);
    await tick();
    expect((await call("GET", `/requests/${ack.body.request_id}`)).body.status).toBe("pending");
    await mock.controls.flush();
    expect((await call("GET", `/requests/${ack.body.request_id}`)).body.status).toBe("succeeded");
  });

  it("forgets request records after the retention period", async () => {
    const { mock, call } = frozenMock({ requestRetentionDays: 30 });
    const ack = await call("POST", "/ingest/orders", { orders: [order("A")] });
    await tick();
    mock.controls.clock.advance(30 * 86_400_000);
    expect((await call("GET", `/requests/${ack.body.request_id}`)).status).toBe(200);
    mock.controls.clock.advance(1);
    expect((await call("GET", `/requests/${ack.body.request_id}`)).status).toBe(404);
    expect((await call("GET", "/requests")).body.data).toEqual([]);
  });

  it("lists requests newest first, filtered, with cursors that carry the filters", async () => {
    const { call } = frozenMock();
    const a = await call("POST", "/ingest/orders", { orders: [order("A")] });
    const b = await call("POST", "/ingest/shipments", {
      shipments: [
        {
          external_id: "S",
          order_id: "nope",
          carrier: "UPS",
          shipped_at: "2025-03-15T10:00:00Z",
          lines: [{ line_id: "L1", quantity: 1 }],
        },
      ],
    });
    const c = await call("POST", "/ingest/orders", { orders: [order("B")] });
    await tick();
    const first = await call("GET", "/requests?limit=2");
    expect(first.body.data.map((r: { request_id: string }) => r.request_id)).toEqual([
      c.body.request_id,
      b.body.request_id,
    ]);
    expect(first.body.has_more).toBe(true);
    const rest = await call("GET", `/requests?limit=2&cursor=${first.body.next_cursor}`);
    expect(rest.body.data.map((r: { request_id: string }) => r.request_id)).toEqual([a.body.request_id]);
    expect(rest.body.has_more).toBe(false);
    const failed = await call("GET", "/requests?status=failed");
    expect(failed.body.data.map((r: { request_id: string }) => r.request_id)).toEqual([b.body.request_id]);
    const mixed = await call("GET", `/requests?status=failed&cursor=${first.body.next_cursor}`);
    expect(mixed).toMatchObject({ status: 400, body: { code: "invalid_cursor" } });
  });
});
