// docs/product.md §3: Idempotency-Key.
import { describe, expect, it } from "vitest";
import { at, order, snapshot } from "../src/fixtures.ts";
import { type Client, expectProblem, succeeded, useSystem } from "../src/harness.ts";
import { targets } from "../src/targets.ts";

async function requestIds(c: Client): Promise<string[]> {
  const res = await c.get("/requests?limit=200");
  expect(res.status).toBe(200);
  return res.body.data.map((r: { request_id: string }) => r.request_id);
}

describe.each(targets)("idempotency — $name", (target) => {
  const h = useSystem(target);

  it("the same key and body replays the original 202 body with Idempotent-Replayed: true and stores nothing new", async () => {
    const c = await h.account();
    const body = { orders: [order()] };
    const key = "8c1f3a52-3f0e-4d35-9a0b-7f1de2c8a6b4";
    const first = await c.ingest("/ingest/orders", body, { "idempotency-key": key });
    expect(first.headers.get("idempotent-replayed")).toBeNull();
    const second = await c.ingest("/ingest/orders", body, { "idempotency-key": key });
    expect(second.headers.get("idempotent-replayed")).toBe("true");
    // The original body unchanged, same request_id and trace_id; headers point at the same record.
    expect(second.body).toEqual(first.body);
    expect(second.headers.get("location")).toBe(first.headers.get("location"));
    expect(second.headers.get("retry-after")).toBe("1");
    expect(second.headers.get("x-trace-id")).toMatch(/^[0-9a-f]{32}$/);
    expect(await requestIds(c)).toEqual([first.body.request_id]);
    const record = await c.wait(first.body.request_id);
    succeeded(record);
    expect(record.idempotency_key).toBe(key);
    // Still replayed once the request is done, and still nothing new (the order is not re-applied).
    const third = await c.ingest("/ingest/orders", body, { "idempotency-key": key });
    expect(third.headers.get("idempotent-replayed")).toBe("true");
    expect(third.body.request_id).toBe(first.body.request_id);
    expect(await requestIds(c)).toEqual([first.body.request_id]);
    expect((await c.get(`/orders/${body.orders[0]?.external_id}`)).body.version).toBe(1);
  });

  it("the same key with a different body is 422 idempotency_key_reused, and nothing is stored", async () => {
    const c = await h.account();
    const first = await c.ingest("/ingest/orders", { orders: [order()] }, { "idempotency-key": "key-1" });
    const other = order();
    const res = await c.post("/ingest/orders", { orders: [other] }, { "idempotency-key": "key-1" });
    expectProblem(res, 422, "idempotency_key_reused");
    expect(await requestIds(c)).toEqual([first.body.request_id]);
    await c.wait(first.body.request_id);
    expect((await c.get(`/orders/${other.external_id}`)).status).toBe(404);
  });

  it("the same key on another endpoint is independent", async () => {
    const c = await h.account();
    const a = await c.ingest("/ingest/orders", { orders: [order()] }, { "idempotency-key": "shared" });
    const inventory = {
      snapshots: [snapshot("WH-1", at(0), "partial", [{ sku: "S", on_hand: 1, available: 1 }])],
    };
    const b = await c.ingest("/ingest/inventory", inventory, { "idempotency-key": "shared" });
    expect(b.headers.get("idempotent-replayed")).toBeNull();
    expect(b.body.request_id).not.toBe(a.body.request_id);
    // Dispositions of two different returns are two endpoints as well.
    const d = { dispositions: [{ line_id: "L1", quantity: 1, outcome: "restock", decided_at: at(0) }] };
    const d1 = await c.ingest("/ingest/returns/RMA-1/dispositions", d, { "idempotency-key": "shared" });
    const d2 = await c.ingest("/ingest/returns/RMA-2/dispositions", d, { "idempotency-key": "shared" });
    expect(d2.headers.get("idempotent-replayed")).toBeNull();
    expect(new Set([a, b, d1, d2].map((r) => r.body.request_id)).size).toBe(4);
    expect((await requestIds(c)).length).toBe(4);
  });

  it("the same key in another account is independent", async () => {
    const [a, b] = [await h.account(), await h.account()];
    const body = { orders: [order()] };
    const ra = await a.ingest("/ingest/orders", body, { "idempotency-key": "same-key" });
    const rb = await b.ingest("/ingest/orders", body, { "idempotency-key": "same-key" });
    expect(rb.headers.get("idempotent-replayed")).toBeNull();
    expect(rb.body.request_id).not.toBe(ra.body.request_id);
    succeeded(await b.wait(rb.body.request_id));
    expect((await b.get(`/orders/${body.orders[0]?.external_id}`)).status).toBe(200);
  });

  it("without a key, the same body twice is two requests", async () => {
    const c = await h.account();
    const body = { orders: [order()] };
    const a = await c.ingest("/ingest/orders", body);
    const b = await c.ingest("/ingest/orders", body);
    expect(b.body.request_id).not.toBe(a.body.request_id);
    expect(b.headers.get("idempotent-replayed")).toBeNull();
    expect(succeeded(await c.wait(b.body.request_id)).items[0].outcome).toBe("stale");
  });

  it.each([
    ["longer than 255 characters", "k".repeat(256)],
    ["empty", ""],
  ])(
    "a key %s is 400 validation_failed at /headers/idempotency-key, and nothing is stored",
    async (_name, key) => {
      const c = await h.account();
      const res = await c.post("/ingest/orders", { orders: [order()] }, { "idempotency-key": key });
      const problem = expectProblem(res, 400, "validation_failed");
      expect(problem.errors.map((e: { pointer: string }) => e.pointer)).toContain("/headers/idempotency-key");
      expect(await requestIds(c)).toEqual([]);
    },
  );

  it("a key of 255 printable characters is accepted", async () => {
    const c = await h.account();
    const key = "~ !#$%&'()*+,-./:;<=>?@[]^_`{|}".padEnd(255, "z");
    const res = await c.ingest("/ingest/orders", { orders: [order()] }, { "idempotency-key": key });
    expect((await c.wait(res.body.request_id)).idempotency_key).toBe(key);
  });
});
