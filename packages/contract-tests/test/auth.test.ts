// docs/product.md §2: bearer tokens, and accounts that cannot see each other.
import { describe, expect, it } from "vitest";
import { api, type Json } from "../src/client.ts";
import { at, disposition, order, returnOf, shipment, snapshot, uid } from "../src/fixtures.ts";
import { type Client, expectProblem, failedWith, succeeded, useSystem } from "../src/harness.ts";
import { targets } from "../src/targets.ts";

const SOME_REQUEST_ID = "019593ed-b960-7678-bfcc-cf7dbea23c69";

/** One call per kind of /v2 operation; all must refuse a bad token alike. */
const CALLS: [string, string, unknown][] = [
  ["GET", "/orders", undefined],
  ["GET", "/orders/ORD-1", undefined],
  ["GET", "/returns", undefined],
  ["GET", "/inventory", undefined],
  ["GET", "/requests", undefined],
  ["GET", `/requests/${SOME_REQUEST_ID}`, undefined],
  ["GET", "/webhook_subscriptions", undefined],
  ["POST", "/ingest/orders", { orders: [order()] }],
  [
    "POST",
    "/ingest/inventory",
    { snapshots: [snapshot("WH-1", at(0), "partial", [{ sku: "S", on_hand: 1, available: 1 }])] },
  ],
  ["GET", "/nope", undefined],
];

const BAD_AUTHORIZATION: [string, Record<string, string>][] = [
  ["missing", {}],
  ["another scheme", { authorization: "Basic b2lzcjpzZWNyZXQ=" }],
  ["Bearer without a token", { authorization: "Bearer " }],
  ["a token with spaces", { authorization: "Bearer oisr_abc def" }],
  ["unknown", { authorization: `Bearer oisr_${"0".repeat(40)}` }],
];

function expectUnauthorized(res: Awaited<ReturnType<Client["get"]>>) {
  expectProblem(res, 401, "unauthorized");
  expect(res.headers.get("www-authenticate")).toMatch(/^Bearer/);
  // Not counted: no account is known, so no rate-limit headers.
  expect(res.headers.get("x-ratelimit-limit")).toBeNull();
}

describe.each(targets)("authentication and account isolation — $name", (target) => {
  // Each test looks only at what it stored: it runs on the accounts of `--token` too.
  const h = useSystem(target, {}, { sharedAccounts: true });

  describe.each(BAD_AUTHORIZATION)("a %s token", (_name, headers) => {
    it.each(CALLS)(
      "%s %s is 401 with WWW-Authenticate: Bearer and a problem body",
      async (method, path, body) => {
        const res = await api(h.system).request(method, path, { body, headers });
        expectUnauthorized(res);
      },
    );
  });

  it("a revoked token is 401 everywhere, while other accounts keep working", async () => {
    const a = await h.account();
    expect((await a.get("/orders")).status).toBe(200);
    await h.system.revokeToken(a.token);
    for (const [method, path, body] of CALLS) expectUnauthorized(await a.request(method, path, { body }));
    // A second account on the same system is unaffected.
    const b = await h.account();
    expect((await b.get("/orders")).status).toBe(200);
  });

  it("an error body never echoes the token", async () => {
    const token = `oisr_${"a".repeat(40)}`;
    const res = await api(h.system, token).get("/orders");
    expectUnauthorized(res);
    expect(res.text).not.toContain(token);
  });

  describe("another account's resources are answered exactly like missing ones", () => {
    async function seed(a: Client) {
      const o = order();
      const r = returnOf(o.external_id, { items: [{ line_id: "L1", quantity: 1, reason_code: "damaged" }] });
      const orders = succeeded(await a.ingestAndWait("/ingest/orders", { orders: [o] }));
      const returns = await a.ingestAndWait("/ingest/returns", { returns: [r] });
      succeeded(returns);
      return {
        order: o,
        orderId: orders.items[0].id as string,
        ret: r,
        returnId: returns.result.items[0].id as string,
        requestId: returns.request_id as string,
      };
    }

    /** The 404 for `real` (another account's) must equal the 404 for `fake` (never existed), with the identifier swapped. */
    async function expectSameAsMissing(b: Client, path: (id: string) => string, real: string, fake: string) {
      const theirs = expectProblem(await b.get(path(real)), 404, "not_found");
      const missing = expectProblem(await b.get(path(fake)), 404, "not_found");
      const normalize = (p: Json, id: string) => ({
        ...p,
        trace_id: "",
        detail: String(p.detail).replaceAll(id, "<id>"),
      });
      expect(normalize(theirs, real)).toEqual(normalize(missing, fake));
    }

    it("orders by server id and by external_id", async () => {
      const [a, b] = [await h.account(), await h.account()];
      const s = await seed(a);
      expect((await a.get(`/orders/${s.orderId}`)).status).toBe(200);
      await expectSameAsMissing(b, (id) => `/orders/${id}`, s.orderId, "ord_01JP9YVEKTNDE3MZX9B154EWRG");
      await expectSameAsMissing(b, (id) => `/orders/${id}`, s.order.external_id, uid("ORD"));
    });

    it("returns by server id and by external_id (RMA)", async () => {
      const [a, b] = [await h.account(), await h.account()];
      const s = await seed(a);
      expect((await a.get(`/returns/${s.ret.external_id}`)).status).toBe(200);
      await expectSameAsMissing(b, (id) => `/returns/${id}`, s.returnId, "ret_01JPSG5BNAPHTDHY3NB7Z638J1");
      await expectSameAsMissing(b, (id) => `/returns/${id}`, s.ret.external_id, uid("RMA"));
    });

    it("requests by request_id", async () => {
      const [a, b] = [await h.account(), await h.account()];
      const s = await seed(a);
      expect((await a.get(`/requests/${s.requestId}`)).status).toBe(200);
      await expectSameAsMissing(b, (id) => `/requests/${id}`, s.requestId, SOME_REQUEST_ID);
    });

    it("dispositions for another account's return by server id are 404 at once, like an unknown ret_ id", async () => {
      const [a, b] = [await h.account(), await h.account()];
      const s = await seed(a);
      const body = { dispositions: [disposition("L1", 1)] };
      const theirs = expectProblem(
        await b.post(`/ingest/returns/${s.returnId}/dispositions`, body),
        404,
        "not_found",
      );
      const fake = "ret_01JPSG5BNAPHTDHY3NB7Z638J1";
      const missing = expectProblem(
        await b.post(`/ingest/returns/${fake}/dispositions`, body),
        404,
        "not_found",
      );
      expect(String(theirs.detail).replaceAll(s.returnId, "<id>")).toBe(
        String(missing.detail).replaceAll(fake, "<id>"),
      );
      // …and by RMA they are accepted, then fail as return_not_found: the RMA is not theirs.
      const record = await b.ingestAndWait(`/ingest/returns/${s.ret.external_id}/dispositions`, body);
      expect(failedWith(record)).toEqual([["", "return_not_found"]]);
      expect((await a.get(`/returns/${s.returnId}`)).body.dispositions).toEqual([]);
    });

    it("another account's order cannot be shipped or returned: order_not_found", async () => {
      const [a, b] = [await h.account(), await h.account()];
      const s = await seed(a);
      const shipped = await b.ingestAndWait("/ingest/shipments", { shipments: [shipment(s.orderId)] });
      expect(failedWith(shipped)).toEqual([["/shipments/0/order_id", "order_not_found"]]);
      const returned = await b.ingestAndWait("/ingest/returns", { returns: [returnOf(s.order.external_id)] });
      expect(failedWith(returned)).toEqual([["/returns/0/order_id", "order_not_found"]]);
      expect((await a.get(`/orders/${s.orderId}`)).body).toMatchObject({ version: 2, shipments: [] });
    });

    it("lists show only the caller's own resources", async () => {
      h.need("accounts"); // b's lists stay empty
      const [a, b] = [await h.account(), await h.account()];
      const s = await seed(a);
      succeeded(
        await a.ingestAndWait("/ingest/inventory", {
          snapshots: [snapshot("WH-A", at(0), "full", [{ sku: "S", on_hand: 1, available: 1 }])],
        }),
      );
      for (const path of [
        "/orders",
        "/returns",
        "/inventory",
        "/requests",
        `/returns?order_id=${s.orderId}`,
        `/returns?order_id=${s.order.external_id}`,
      ]) {
        const res = await b.get(path);
        expect(res.status, path).toBe(200);
        expect(res.body.data, path).toEqual([]);
      }
    });
  });

  it.each(["/orders", "/returns", "/requests", "/inventory"])(
    "a %s cursor of account A, used by account B, never shows A's data",
    async (path) => {
      const [a, b] = [await h.account(), await h.account()];
      // Both accounts have data; A pages through its own with limit=1.
      for (const c of [a, b]) {
        const o1 = order();
        const o2 = order();
        succeeded(await c.ingestAndWait("/ingest/orders", { orders: [o1, o2] }));
        succeeded(
          await c.ingestAndWait("/ingest/returns", {
            returns: [returnOf(o1.external_id), returnOf(o2.external_id)],
          }),
        );
        succeeded(
          await c.ingestAndWait("/ingest/inventory", {
            snapshots: [
              snapshot(`WH-${c.accountId}`, at(0), "partial", [
                { sku: "S1", on_hand: 1, available: 1 },
                { sku: "S2", on_hand: 1, available: 1 },
              ]),
            ],
          }),
        );
      }
      const first = await a.get(`${path}?limit=1`);
      expect(first.status).toBe(200);
      expect(first.body.has_more).toBe(true);
      const aIds = new Set(
        JSON.stringify((await a.get(`${path}?limit=200`)).body.data).match(
          /(ord|ret)_[0-9A-Z]{26}|WH-acc_[0-9A-Z]+|[0-9a-f-]{36}/g,
        ),
      );
      const res = await b.get(`${path}?limit=200&cursor=${encodeURIComponent(first.body.next_cursor)}`);
      if (res.status === 200) {
        const seen = JSON.stringify(res.body.data);
        for (const id of aIds) expect(seen).not.toContain(id);
      } else {
        expectProblem(res, 400, "invalid_cursor");
      }
    },
  );
});
