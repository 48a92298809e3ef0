// docs/product.md §5, lists and incremental polling: GET /orders and GET /returns are change feeds.
import { describe, expect, it } from "vitest";
import type { Json } from "../src/client.ts";
import { at, disposition, order, returnOf, shipment } from "../src/fixtures.ts";
import { type Client, expectProblem, succeeded, useSystem } from "../src/harness.ts";
import { sleep } from "../src/poll.ts";
import { targets } from "../src/targets.ts";

interface Page {
  data: Json[];
  next_cursor: string;
  has_more: boolean;
}

async function page(c: Client, path: string, params: Record<string, string | undefined> = {}): Promise<Page> {
  const q = new URLSearchParams(
    Object.entries(params).filter((e): e is [string, string] => e[1] !== undefined),
  );
  const res = await c.get(`${path}${q.size ? `?${q}` : ""}`);
  expect(res.status, res.text).toBe(200);
  expect(Object.keys(res.body).sort()).toEqual(["data", "has_more", "next_cursor"]);
  expect(typeof res.body.next_cursor).toBe("string");
  expect(res.body.next_cursor.length).toBeGreaterThan(0);
  return res.body;
}

/** Follows next_cursor until has_more is false; returns every item and the final cursor. */
async function drain(c: Client, path: string, params: Record<string, string | undefined> = {}) {
  const items: Json[] = [];
  let cursor = params.cursor;
  for (let i = 0; i < 100; i++) {
    const p = await page(c, path, { ...params, cursor });
    items.push(...p.data);
    cursor = p.next_cursor;
    if (!p.has_more) return { items, cursor };
  }
  throw new Error("feed did not end");
}

const ext = (items: Json[]) => items.map((i) => i.external_id);

describe.each(targets)("change feeds — $name", (target) => {
  const h = useSystem(target);

  it.each(["/orders", "/returns", "/inventory", "/requests", "/webhook_subscriptions"])(
    "%s answers {data, next_cursor, has_more}, with a cursor even when empty",
    async (path) => {
      const c = await h.account();
      const first = await page(c, path);
      expect(first).toEqual({ data: [], next_cursor: expect.any(String), has_more: false });
      expect(await page(c, path, { cursor: first.next_cursor })).toEqual({
        data: [],
        next_cursor: expect.any(String),
        has_more: false,
      });
    },
  );

  it("orders come in change order; a stored cursor returns only what changed since, an update moves the order to the end", async () => {
    const c = await h.account();
    const [a, b, o] = [order(), order(), order()];
    succeeded(await c.ingestAndWait("/ingest/orders", { orders: [a, b] }));
    succeeded(await c.ingestAndWait("/ingest/orders", { orders: [o] }));
    const first = await drain(c, "/orders");
    expect(ext(first.items)).toEqual([a.external_id, b.external_id, o.external_id]);
    expect(first.items.map((i) => i.version)).toEqual([1, 1, 1]);

    // Nothing changed: the stored cursor gives an empty page (and a cursor again).
    expect((await page(c, "/orders", { cursor: first.cursor })).data).toEqual([]);

    succeeded(
      await c.ingestAndWait("/ingest/orders", {
        orders: [{ ...a, shipping_method: "Express", source_updated_at: at(10) }],
      }),
    );
    const second = await drain(c, "/orders", { cursor: first.cursor });
    expect(ext(second.items)).toEqual([a.external_id]);
    expect(second.items[0]).toMatchObject({ version: 2, shipping_method: "Express" });

    // A shipment changes the order too.
    succeeded(await c.ingestAndWait("/ingest/shipments", { shipments: [shipment(b.external_id)] }));
    const third = await drain(c, "/orders", { cursor: second.cursor });
    expect(third.items.map((i) => [i.external_id, i.version, i.status])).toEqual([
      [b.external_id, 2, "shipped"],
    ]);

    // A return of its lines too (quantity_returned).
    succeeded(await c.ingestAndWait("/ingest/returns", { returns: [returnOf(o.external_id)] }));
    const fourth = await drain(c, "/orders", { cursor: third.cursor });
    expect(fourth.items.map((i) => [i.external_id, i.version, i.lines[0].quantity_returned])).toEqual([
      [o.external_id, 2, 1],
    ]);

    // From the start, each order once, at its latest change, in its latest state.
    const all = await drain(c, "/orders");
    expect(all.items.map((i) => [i.external_id, i.version])).toEqual([
      [a.external_id, 2],
      [b.external_id, 2],
      [o.external_id, 2],
    ]);
  });

  it("stale and unchanged updates do not move an order in the feed", async () => {
    const c = await h.account();
    const a = order();
    succeeded(await c.ingestAndWait("/ingest/orders", { orders: [a] }));
    const { cursor } = await drain(c, "/orders");
    succeeded(await c.ingestAndWait("/ingest/orders", { orders: [a] })); // stale
    succeeded(await c.ingestAndWait("/ingest/orders", { orders: [{ ...a, source_updated_at: at(50) }] })); // unchanged
    expect((await page(c, "/orders", { cursor })).data).toEqual([]);
  });

  it("pages of the feed, followed by next_cursor, add up to the whole feed once", async () => {
    const c = await h.account();
    const orders = Array.from({ length: 7 }, () => order());
    succeeded(await c.ingestAndWait("/ingest/orders", { orders }));
    const pages: Page[] = [];
    let cursor: string | undefined;
    do {
      const p = await page(c, "/orders", { limit: "3", cursor });
      pages.push(p);
      cursor = p.next_cursor;
    } while (pages.at(-1)?.has_more);
    expect(pages.map((p) => p.data.length)).toEqual([3, 3, 1]);
    expect(pages.map((p) => p.has_more)).toEqual([true, true, false]);
    expect(pages.flatMap((p) => ext(p.data))).toEqual(orders.map((o) => o.external_id));
  });

  it("filters orders by status, source and updated_since", async () => {
    const c = await h.account();
    const [open, held, pos] = [order(), order({ status: "on_hold" }), order({ source: "pos-12" })];
    succeeded(await c.ingestAndWait("/ingest/orders", { orders: [open, held] }));
    const firstUpdated = (await c.get(`/orders/${open.external_id}`)).body.updated_at as string;
    await sleep(10);
    succeeded(await c.ingestAndWait("/ingest/orders", { orders: [pos] }));
    const shipped = order();
    succeeded(await c.ingestAndWait("/ingest/orders", { orders: [shipped] }));
    succeeded(await c.ingestAndWait("/ingest/shipments", { shipments: [shipment(shipped.external_id)] }));
    const posUpdated = (await c.get(`/orders/${pos.external_id}`)).body.updated_at as string;

    expect(ext((await drain(c, "/orders", { status: "on_hold" })).items)).toEqual([held.external_id]);
    expect(ext((await drain(c, "/orders", { status: "shipped" })).items)).toEqual([shipped.external_id]);
    expect(ext((await drain(c, "/orders", { status: "open" })).items)).toEqual([
      open.external_id,
      pos.external_id,
    ]);
    expect(ext((await drain(c, "/orders", { source: "pos-12" })).items)).toEqual([pos.external_id]);
    expect(ext((await drain(c, "/orders", { updated_since: firstUpdated })).items)).toEqual([
      open.external_id,
      held.external_id,
      pos.external_id,
      shipped.external_id,
    ]);
    expect(ext((await drain(c, "/orders", { updated_since: posUpdated })).items)).toEqual([
      pos.external_id,
      shipped.external_id,
    ]);
    expect(ext((await drain(c, "/orders", { status: "open", source: "shopify" })).items)).toEqual([
      open.external_id,
    ]);
    expect((await drain(c, "/orders", { updated_since: "2999-01-01T00:00:00Z" })).items).toEqual([]);
  });

  it("a filtered cursor keeps following its filter; once the order leaves the filter it is no longer listed", async () => {
    const c = await h.account();
    const a = order({ status: "on_hold" });
    succeeded(await c.ingestAndWait("/ingest/orders", { orders: [a] }));
    const { cursor } = await drain(c, "/orders", { status: "on_hold" });
    const b = order({ status: "on_hold" });
    succeeded(await c.ingestAndWait("/ingest/orders", { orders: [b, order()] }));
    expect(ext((await drain(c, "/orders", { status: "on_hold", cursor })).items)).toEqual([b.external_id]);
  });

  it.each([
    ["/orders", { status: "open" }, { status: "on_hold" }],
    ["/orders", { status: "open" }, { source: "shopify" }],
    ["/orders", {}, { updated_since: "2025-01-01T00:00:00Z" }],
    ["/orders", { source: "shopify" }, { source: "pos" }],
    ["/returns", { status: "approved" }, { status: "received" }],
    ["/returns", {}, { order_id: "ORD-1" }],
  ] as [string, Record<string, string>, Record<string, string>][])(
    "%s: a cursor made with %j sent with %j is 400 invalid_cursor",
    async (path, made, sent) => {
      const c = await h.account();
      const o = order();
      succeeded(await c.ingestAndWait("/ingest/orders", { orders: [o, order()] }));
      succeeded(await c.ingestAndWait("/ingest/returns", { returns: [returnOf(o.external_id)] }));
      const { next_cursor } = await page(c, path, { ...made, limit: "1" });
      expectProblem(
        await c.get(`${path}?${new URLSearchParams({ ...sent, cursor: next_cursor })}`),
        400,
        "invalid_cursor",
      );
      // With the same filters it is fine.
      expect((await c.get(`${path}?${new URLSearchParams({ ...made, cursor: next_cursor })}`)).status).toBe(
        200,
      );
    },
  );

  it("a cursor sent without any filter uses the filters it carries (spec: 'the same filters, or none')", async () => {
    const c = await h.account();
    const [held1, open, held2] = [order({ status: "on_hold" }), order(), order({ status: "on_hold" })];
    succeeded(await c.ingestAndWait("/ingest/orders", { orders: [held1, open, held2] }));
    const first = await page(c, "/orders", { status: "on_hold", limit: "1" });
    expect(ext(first.data)).toEqual([held1.external_id]);
    const rest = await page(c, "/orders", { cursor: first.next_cursor });
    expect(ext(rest.data)).toEqual([held2.external_id]);
  });

  it.each(["/orders", "/returns", "/requests", "/inventory"])(
    "%s: a tampered cursor is 400 invalid_cursor",
    async (path) => {
      const c = await h.account();
      const orders = Array.from({ length: 3 }, () => order());
      succeeded(await c.ingestAndWait("/ingest/orders", { orders }));
      succeeded(
        await c.ingestAndWait("/ingest/returns", { returns: orders.map((o) => returnOf(o.external_id)) }),
      );
      succeeded(
        await c.ingestAndWait("/ingest/inventory", {
          snapshots: [
            {
              location_id: "WH",
              as_of: at(0),
              mode: "full",
              items: ["A", "B", "C"].map((sku) => ({ sku, on_hand: 1, available: 1 })),
            },
          ],
        }),
      );
      const { next_cursor: cursor } = await page(c, path, { limit: "1" });
      // Every single-character change of the cursor must be refused, not read as another position.
      const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
      const accepted: string[] = [];
      for (let i = 0; i < cursor.length; i++) {
        const replacement = alphabet[(alphabet.indexOf(cursor[i] as string) + 1) % alphabet.length] as string;
        const tampered = cursor.slice(0, i) + replacement + cursor.slice(i + 1);
        const res = await c.get(`${path}?limit=1&cursor=${encodeURIComponent(tampered)}`);
        if (res.status !== 400) accepted.push(`${tampered} → ${res.status}`);
        else expectProblem(res, 400, "invalid_cursor");
      }
      expect(accepted, `tampered cursors accepted (original ${cursor})`).toEqual([]);
      for (const garbage of ["x", "%%%", "null", cursor.slice(0, -4), `${cursor}AAAA`]) {
        expectProblem(await c.get(`${path}?cursor=${encodeURIComponent(garbage)}`), 400, "invalid_cursor");
      }
    },
  );

  describe("the returns feed", () => {
    it("returns come in change order; dispositions move a return to the end with a new version", async () => {
      const c = await h.account();
      const o = order();
      succeeded(await c.ingestAndWait("/ingest/orders", { orders: [o] }));
      const r1 = returnOf(o.external_id, { items: [{ line_id: "L1", quantity: 1, reason_code: "damaged" }] });
      const r2 = returnOf(o.external_id, { items: [{ line_id: "L2", quantity: 1, reason_code: "damaged" }] });
      succeeded(await c.ingestAndWait("/ingest/returns", { returns: [r1, r2] }));
      const first = await drain(c, "/returns");
      expect(ext(first.items)).toEqual([r1.external_id, r2.external_id]);
      succeeded(
        await c.ingestAndWait(`/ingest/returns/${r1.external_id}/dispositions`, {
          dispositions: [disposition("L1", 1)],
        }),
      );
      const second = await drain(c, "/returns", { cursor: first.cursor });
      expect(second.items.map((r) => [r.external_id, r.status, r.dispositions.length])).toEqual([
        [r1.external_id, "completed", 1],
      ]);
      expect(second.items[0].version).toBeGreaterThan(first.items[0].version);
      expect(ext((await drain(c, "/returns")).items)).toEqual([r2.external_id, r1.external_id]);
    });

    it("filters returns by status, by order (server id or external_id) and by updated_since", async () => {
      const c = await h.account();
      const [o1, o2] = [order(), order()];
      succeeded(await c.ingestAndWait("/ingest/orders", { orders: [o1, o2] }));
      const o1Id = (await c.get(`/orders/${o1.external_id}`)).body.id as string;
      const ra = returnOf(o1.external_id, { status: "requested" });
      const rb = returnOf(o2.external_id, { status: "approved" });
      succeeded(await c.ingestAndWait("/ingest/returns", { returns: [ra] }));
      await sleep(10);
      succeeded(await c.ingestAndWait("/ingest/returns", { returns: [rb] }));
      const rbUpdated = (await c.get(`/returns/${rb.external_id}`)).body.updated_at as string;

      expect(ext((await drain(c, "/returns", { status: "requested" })).items)).toEqual([ra.external_id]);
      expect(ext((await drain(c, "/returns", { status: "approved" })).items)).toEqual([rb.external_id]);
      expect(ext((await drain(c, "/returns", { order_id: o1Id })).items)).toEqual([ra.external_id]);
      expect(ext((await drain(c, "/returns", { order_id: o2.external_id })).items)).toEqual([rb.external_id]);
      expect(ext((await drain(c, "/returns", { order_id: "ORD-none" })).items)).toEqual([]);
      expect(ext((await drain(c, "/returns", { updated_since: rbUpdated })).items)).toEqual([rb.external_id]);
      expect(
        ext((await drain(c, "/returns", { status: "approved", order_id: o1.external_id })).items),
      ).toEqual([]);
    });
  });
});
