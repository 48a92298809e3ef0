// Lists, iterators and change feeds against the real server.

import { dispositions, order, returnOf, shipment, snapshot } from "@oisr/contract/fixtures";
import { beforeAll, describe, expect, it } from "vitest";
import type { Order, Return } from "../../../src/index.ts";
import { at, type TestServer, uid } from "../harness.ts";

/** A client of a fresh account that counts the calls per path. */
async function countingClient(server: TestServer) {
  const calls: string[] = [];
  const client = await server.newClient({
    fetch: (request) => {
      calls.push(`${request.method} ${new URL(request.url).pathname}`);
      return fetch(request);
    },
  });
  return { client, calls };
}

export const readsTests = (getServer: () => TestServer) =>
  describe("lists and feeds", () => {
    let server: TestServer;

    beforeAll(() => {
      server = getServer();
    });

    it("orders.iterate follows next_cursor over several pages, keeping the filters", async () => {
      const { client, calls } = await countingClient(server);
      const source = uid("src");
      const mine = Array.from({ length: 5 }, () => order({ source }));
      await client.orders.ingestAndWait([...mine, order({ source: "other" })]);
      calls.length = 0;

      const seen: Order[] = [];
      for await (const o of client.orders.iterate({ source, limit: 2 })) seen.push(o);
      expect(seen.map((o) => o.external_id).sort()).toEqual(mine.map((o) => o.external_id).sort());
      expect(new Set(seen.map((o) => o.id)).size).toBe(5);
      // 2 + 2 + 1: three pages, and no call after the one that said has_more: false.
      expect(calls).toEqual(["GET /v2/orders", "GET /v2/orders", "GET /v2/orders"]);

      const first = await client.orders.list({ source, limit: 2 });
      expect(first).toMatchObject({ has_more: true });
      expect(first.data).toHaveLength(2);
      expect(first.next_cursor).toEqual(expect.any(String));
    });

    it("orders.changes delivers a change made after it started, and ends when aborted", async () => {
      const client = await server.newClient();
      const early = order();
      await client.orders.ingestAndWait([early]);

      const controller = new AbortController();
      const delivered: { order: Order; cursor: string | null }[] = [];
      let onDelivered: () => void = () => {};
      const feed = (async () => {
        for await (const change of client.orders.changes({ intervalMs: 50, signal: controller.signal })) {
          delivered.push(change);
          onDelivered();
        }
      })();
      const until = (n: number) =>
        new Promise<void>((resolve) => {
          onDelivered = () => delivered.length >= n && resolve();
          onDelivered();
        });

      await until(1);
      expect(delivered[0]?.order.external_id).toBe(early.external_id);

      // An update of the same order and a new one, while the feed is polling at its end.
      const late = order();
      await client.orders.ingestAndWait([{ ...early, status: "on_hold", source_updated_at: at(5) }, late]);
      await until(3);
      controller.abort();
      await expect(feed).resolves.toBeUndefined(); // aborting ends the loop normally

      const [, updated, added] = delivered;
      expect(updated?.order).toMatchObject({ external_id: early.external_id, status: "on_hold", version: 2 });
      expect(added?.order.external_id).toBe(late.external_id);
      // The last item's cursor resumes after it: nothing more to deliver.
      const resumed = await client.orders.list({ cursor: delivered.at(-1)?.cursor ?? undefined });
      expect(resumed.data).toEqual([]);
    });

    it("returns.iterate and returns.changes see returns in their latest state", async () => {
      const client = await server.newClient();
      const o = order();
      const r = returnOf(o.external_id);
      await client.orders.ingestAndWait([o]);
      await client.shipments.ingestAndWait([shipment(o.external_id)]);
      await client.returns.ingestAndWait([r]);
      await client.returns.ingestDispositionsAndWait(r.external_id, dispositions());

      const all: Return[] = [];
      for await (const ret of client.returns.iterate({ order_id: o.external_id, limit: 1 })) all.push(ret);
      expect(all.map((ret) => [ret.external_id, ret.status])).toEqual([[r.external_id, "completed"]]);

      const controller = new AbortController();
      for await (const { return: ret, cursor } of client.returns.changes({ signal: controller.signal })) {
        expect(ret).toMatchObject({ external_id: r.external_id, status: "completed" });
        expect(cursor).toEqual(expect.any(String));
        controller.abort();
      }
    });

    it("inventory.list and inventory.iterate read back the levels of a snapshot", async () => {
      const client = await server.newClient();
      const here = snapshot();
      await client.inventory.ingestAndWait([here, snapshot()]);

      const page = await client.inventory.list({ location_id: here.location_id });
      expect(page.has_more).toBe(false);
      expect(page.data.map((l) => [l.sku, l.on_hand, l.available]).sort()).toEqual(
        here.items.map((i) => [i.sku, i.on_hand, i.available]).sort(),
      );
      expect(page.data).toHaveLength(3);
      expect(page.data.every((l) => l.location_id === here.location_id)).toBe(true);

      // The same SKUs at both locations: iterating one SKU pages over two levels.
      const tees = [];
      const sku = here.items[0]?.sku;
      for await (const level of client.inventory.iterate({ sku, limit: 1 })) tees.push(level);
      expect(tees).toHaveLength(2);
    });

    it("requests.list and requests.iterate list the account's requests, newest first", async () => {
      const client = await server.newClient();
      const a = await client.orders.ingest([order()]);
      const b = await client.inventory.ingest([snapshot()]);
      await client.requests.waitFor(b.request_id);

      const page = await client.requests.list({ limit: 1 });
      expect(page.data.map((r) => r.request_id)).toEqual([b.request_id]);
      expect(page.has_more).toBe(true);

      const ids: string[] = [];
      for await (const r of client.requests.iterate({ limit: 1 })) ids.push(r.request_id);
      expect(ids).toEqual([b.request_id, a.request_id]);
      expect((await client.requests.list({ kind: "orders" })).data.map((r) => r.request_id)).toEqual([
        a.request_id,
      ]);
    });
  });
