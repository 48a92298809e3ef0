// The SDK against the real server: the order → shipment → return → dispositions walk, and the
// errors a caller handles.

import { dispositions, order, returnOf, shipment } from "@oisr/contract/fixtures";
import { beforeAll, describe, expect, it } from "vitest";
import {
  AuthenticationError,
  ConflictError,
  createClient,
  NotFoundError,
  type OisrClient,
  type OrderInput,
  RequestFailedError,
  type RequestRecord,
  ValidationError,
} from "../../../src/index.ts";
import { type TestServer, uid } from "../harness.ts";

const TRACE_ID = /^[0-9a-f]{32}$/;

export const walkTests = (getServer: () => TestServer) =>
  describe("the walk and the errors", () => {
    let server: TestServer;
    let client: OisrClient;

    beforeAll(async () => {
      server = getServer();
      client = await server.newClient();
    });

    it("walks order → shipment → return → dispositions: the order ends shipped and the return completed", async () => {
      const o = order();
      const progress: RequestRecord["status"][] = [];
      const created = await client.orders.ingestAndWait([o], { onProgress: (r) => progress.push(r.status) });
      expect(created.status).toBe("succeeded");
      expect(created.kind).toBe("orders");
      expect(progress.at(-1)).toBe("succeeded");
      const item = created.result?.items[0];
      expect(item).toMatchObject({ index: 0, type: "order", outcome: "created" });
      expect(item?.id).toMatch(/^ord_/);

      const shipped = await client.shipments.ingestAndWait([shipment(o.external_id)]);
      expect(shipped.status).toBe("succeeded");
      const afterShipment = await client.orders.get(o.external_id);
      expect(afterShipment.id).toBe(item?.id);
      expect(afterShipment.status).toBe("shipped");
      expect(afterShipment.lines.map((l) => l.quantity_shipped)).toEqual([2, 1]);

      const r = returnOf(o.external_id);
      expect((await client.returns.ingestAndWait([r])).status).toBe("succeeded");
      const disposed = await client.returns.ingestDispositionsAndWait(r.external_id, dispositions());
      expect(disposed.status).toBe("succeeded");
      expect(disposed.kind).toBe("dispositions");

      const ret = await client.returns.get(r.external_id);
      expect(ret).toMatchObject({
        external_id: r.external_id,
        status: "completed",
        order_id: item?.id,
        order_external_id: o.external_id,
      });
      expect(ret.id).toMatch(/^ret_/);
      expect(ret.items.map((i) => i.quantity_dispositioned)).toEqual([1, 1]);
      expect(await client.returns.get(ret.id)).toMatchObject({ id: ret.id, version: ret.version });
      expect((await client.orders.get(o.external_id)).lines.map((l) => l.quantity_returned)).toEqual([1, 1]);
    });

    it("applies one account's requests in order, so a walk submitted without waiting succeeds", async () => {
      const o = order();
      const r = returnOf(o.external_id);
      const acks = [
        await client.orders.ingest([o]),
        await client.shipments.ingest([shipment(o.external_id)]),
        await client.returns.ingest([r]),
        await client.returns.ingestDispositions(r.external_id, dispositions()),
      ];
      for (const ack of acks) expect(ack.trace_id).toMatch(TRACE_ID);
      const records = await Promise.all(acks.map((ack) => client.requests.waitFor(ack.request_id)));
      expect(records.map((rec) => rec.status)).toEqual(["succeeded", "succeeded", "succeeded", "succeeded"]);
      expect((await client.returns.get(r.external_id)).status).toBe("completed");
    });

    it("throws RequestFailedError with the record's errors when business rules reject a request", async () => {
      const missing = uid("NO-SUCH-ORDER");
      const err = await client.shipments
        .ingestAndWait([shipment(order().external_id), shipment(missing)])
        .catch((e: unknown) => e);
      expect(err).toBeInstanceOf(RequestFailedError);
      const record = (err as RequestFailedError).record;
      expect(record.status).toBe("failed");
      expect(record.result).toBeNull();
      expect(record.errors).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ pointer: "/shipments/1/order_id", code: "order_not_found" }),
        ]),
      );
      expect((err as Error).message).toContain(record.request_id);
      // requests.waitFor returns the same record without throwing.
      expect(await client.requests.waitFor(record.request_id)).toEqual(record);
    });

    it("throws ValidationError with JSON pointers on a schema violation, and stores nothing", async () => {
      const before = await client.requests.list({ limit: 1 });
      const bad = order({ currency: "euro" });
      (bad.lines[0] as { quantity: number }).quantity = 0;
      const err = await client.orders.ingest([order(), bad]).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ValidationError);
      const v = err as ValidationError;
      expect(v.status).toBe(400);
      expect(v.code).toBe("validation_failed");
      expect(v.traceId).toMatch(TRACE_ID);
      // Every problem, each pointing into the body that was sent.
      expect(v.errors.map((e) => e.pointer).sort()).toEqual([
        "/orders/1/currency",
        "/orders/1/lines/0/quantity",
      ]);
      expect(v.errors.every((e) => e.message.length > 0)).toBe(true);
      expect((await client.requests.list({ limit: 1 })).data[0]?.request_id).toBe(before.data[0]?.request_id);
    });

    it("throws ValidationError for an empty batch (1–1000 items)", async () => {
      const err = await client.orders.ingest([]).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ValidationError);
      expect((err as ValidationError).errors[0]?.pointer).toBe("/orders");
    });

    it("throws AuthenticationError for an unknown token, without retrying", async () => {
      let calls = 0;
      const stranger = createClient({
        baseUrl: server.baseUrl,
        token: "oisr_not_a_real_token",
        fetch: (request) => {
          calls++;
          return fetch(request);
        },
      });
      const err = await stranger.orders.get("A-1").catch((e: unknown) => e);
      expect(err).toBeInstanceOf(AuthenticationError);
      expect((err as AuthenticationError).status).toBe(401);
      expect((err as AuthenticationError).headers.get("www-authenticate")).toMatch(/^Bearer/);
      expect(calls).toBe(1);
    });

    it("throws NotFoundError for unknown resources and for another account's", async () => {
      const o = order();
      await client.orders.ingestAndWait([o]);
      const other = await server.newClient();
      for (const call of [
        () => client.orders.get(uid("missing")),
        () => client.returns.get("ret_00000000000000000000000000"),
        () => client.requests.get(crypto.randomUUID()),
        () => other.orders.get(o.external_id),
      ]) {
        const err = await call().catch((e: unknown) => e);
        expect(err).toBeInstanceOf(NotFoundError);
        expect((err as NotFoundError).code).toBe("not_found");
        expect((err as NotFoundError).traceId).toMatch(TRACE_ID);
      }
    });

    it("replays an ingest with the same idempotency key: same request_id, nothing stored twice", async () => {
      const body: OrderInput[] = [order()];
      const key = uid("batch");
      const first = await client.orders.ingest(body, { idempotencyKey: key });
      const again = await client.orders.ingest(body, { idempotencyKey: key });
      expect(again.request_id).toBe(first.request_id);
      const raw = await client.raw.POST("/ingest/orders", {
        body: { orders: body as never },
        headers: { "Idempotency-Key": key },
      });
      expect(raw.response.status).toBe(202);
      expect(raw.response.headers.get("idempotent-replayed")).toBe("true");
      expect(raw.data?.request_id).toBe(first.request_id);
      const record = await client.requests.waitFor(first.request_id);
      expect(record).toMatchObject({ status: "succeeded", idempotency_key: key, item_count: 1 });

      const { data } = await client.requests.list({ kind: "orders", limit: 200 });
      expect(data.filter((r) => r.idempotency_key === key)).toHaveLength(1);
    });

    it("generates a different idempotency key per call, so two equal batches are two requests", async () => {
      const body = [order()];
      const a = await client.orders.ingest(body);
      const b = await client.orders.ingest(body);
      expect(a.request_id).not.toBe(b.request_id);
      const [ra, rb] = await Promise.all([
        client.requests.get(a.request_id),
        client.requests.get(b.request_id),
      ]);
      expect(ra.idempotency_key).toMatch(/^[0-9a-f-]{36}$/);
      expect(rb.idempotency_key).not.toBe(ra.idempotency_key);
      // Applied twice; the second is not newer (same source_updated_at), so it changes nothing.
      expect((await client.requests.waitFor(b.request_id)).result?.items[0]?.outcome).toBe("stale");
    });

    it("throws ConflictError when an idempotency key is reused with another body", async () => {
      const key = uid("batch");
      await client.orders.ingest([order()], { idempotencyKey: key });
      const err = await client.orders.ingest([order()], { idempotencyKey: key }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ConflictError);
      expect((err as ConflictError).status).toBe(422);
      expect((err as ConflictError).code).toBe("idempotency_key_reused");
    });
  });
