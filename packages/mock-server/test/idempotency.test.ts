// Idempotency keys: same account, endpoint and key within 24 h replays; another body is 422.
import { describe, expect, it } from "vitest";
import { client, frozenMock, order } from "./support.ts";

describe("Idempotency-Key", () => {
  it("replays the original acknowledgment and stores nothing new", async () => {
    const { mock, call } = frozenMock();
    const key = { "idempotency-key": "k-1" };
    const first = await call("POST", "/ingest/orders", { orders: [order("A")] }, key);
    const replay = await call(
      "POST",
      "/ingest/orders",
      { orders: [order("A")] },
      {
        ...key,
        traceparent: "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01",
      },
    );
    expect(replay.status).toBe(202);
    expect(replay.body).toEqual(first.body);
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    expect(first.headers.has("idempotent-replayed")).toBe(false);
    // The body is the original; the header is this call's own trace.
    expect(replay.headers.get("x-trace-id")).toBe("0af7651916cd43dd8448eb211c80319c");
    expect(replay.body.trace_id).not.toBe("0af7651916cd43dd8448eb211c80319c");
    expect(mock.controls.requests()).toHaveLength(1);
    expect(mock.controls.requests()[0]).toMatchObject({ idempotency_key: "k-1" });
  });

  it("answers 422 for the same key with another body", async () => {
    const { call } = frozenMock();
    await call("POST", "/ingest/orders", { orders: [order("A")] }, { "idempotency-key": "k-1" });
    const reused = await call(
      "POST",
      "/ingest/orders",
      { orders: [order("B")] },
      { "idempotency-key": "k-1" },
    );
    expect(reused.status).toBe(422);
    expect(reused.body).toMatchObject({ code: "idempotency_key_reused" });
  });

  it("scopes keys by endpoint and account, and lets them expire after 24 hours", async () => {
    const { mock, call } = frozenMock();
    const key = { "idempotency-key": "k-1" };
    const first = await call("POST", "/ingest/orders", { orders: [order("A")] }, key);
    const other = await client(mock, "oisr_other")("POST", "/ingest/orders", { orders: [order("A")] }, key);
    expect(other.body.request_id).not.toBe(first.body.request_id);
    const returns = await call(
      "POST",
      "/ingest/returns",
      {
        returns: [
          {
            external_id: "R",
            order_id: "A",
            items: [{ line_id: "L1", quantity: 1, reason_code: "other" }],
            requested_at: "2025-03-15T10:00:00Z",
            source_updated_at: "2025-03-15T10:00:00Z",
          },
        ],
      },
      key,
    );
    expect(returns.status).toBe(202);

    mock.controls.clock.advance(24 * 3_600_000 - 1);
    expect((await call("POST", "/ingest/orders", { orders: [order("A")] }, key)).body.request_id).toBe(
      first.body.request_id,
    );
    mock.controls.clock.advance(2);
    const fresh = await call("POST", "/ingest/orders", { orders: [order("B")] }, key);
    expect(fresh.status).toBe(202);
    expect(fresh.body.request_id).not.toBe(first.body.request_id);
  });
});
