// Request completion events on the mock: one `request.<status>` event per request at its final
// status, never for an attempt that is retried, built by @oisr/contract's requestEvent rules (the
// server's); the contract suite proves delivery and agreement with the server from outside.
import { describe, expect, it } from "vitest";
import { frozenMock, order } from "./support.ts";

describe("request events", () => {
  it("each request records one event at its final status, carrying its record, bounded, with its url", async () => {
    const { mock, call, token } = frozenMock({ maxAttempts: 3 });
    const ok = (await call("POST", "/ingest/orders", { orders: [order("A")] })).body.request_id;
    mock.controls.failNext("failed");
    const failed = (await call("POST", "/ingest/orders", { orders: [order("B")] })).body.request_id;
    mock.controls.failNext("dead");
    const dead = (await call("POST", "/ingest/orders", { orders: [order("C")] })).body.request_id;
    const big = (
      await call("POST", "/ingest/orders", {
        orders: Array.from({ length: 101 }, (_, i) => order(`BIG-${i}`)),
      })
    ).body.request_id;
    await mock.controls.flush();

    const events = (await call("GET", "/events")).body.data;
    expect(events.map((e: { type: string }) => e.type)).toEqual([
      "request.succeeded",
      "request.failed",
      "request.dead",
      "request.succeeded",
    ]);
    const ids = [ok, failed, dead, big];
    expect(events.map((e: { data: { object: { request_id: string } } }) => e.data.object.request_id)).toEqual(
      ids,
    );
    for (const [i, event] of events.entries()) {
      const record = (await call("GET", `/requests/${ids[i]}`)).body;
      // The event leaves the retry links out (decision 014).
      const { result, errors, retry_of: _of, retried_by: _by, ...rest } = record;
      expect(event.created_at).toBe(record.completed_at);
      expect(event.data.object).toMatchObject({
        ...rest,
        errors_total: errors.length,
        url: `/v2/requests/${ids[i]}`,
      });
      if (record.item_count <= 100) expect(event.data.object.result).toEqual(result);
    }
    expect(events[1].data.object.errors).toHaveLength(1);
    expect(events[2].data.object).toMatchObject({ attempts: 3, error: { code: "processing_failed" } });
    expect(events[3].data.object.result).toEqual({ created: 101, updated: 0, unchanged: 0, stale: 0 });
    expect(mock.controls.events({ token })).toEqual(events);
  });

  it("a request that is retried records nothing until it dies", async () => {
    const { mock, call, token } = frozenMock({ maxAttempts: 2, retryDelayMs: 1000 });
    mock.controls.failNext("dead");
    await call("POST", "/ingest/orders", { orders: [order("A")] });
    // The first attempt fails; the retry waits on the frozen clock.
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(mock.controls.requests({ token })[0]?.status).toBe("processing");
    expect(mock.controls.events({ token })).toEqual([]);
    await mock.controls.flush();
    expect(mock.controls.events({ token }).map((e) => e.type)).toEqual(["request.dead"]);
  });
});
