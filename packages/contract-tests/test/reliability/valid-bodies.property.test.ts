// Properties over generated input, on every target.
// 1. VALID order, shipment and return batches (built to the spec's input schemas: counts,
//    quantities, statuses, optional members, unicode strings up to their length limits) are always
//    accepted (202) and always end `succeeded` or `failed`; a `failed` request's errors point
//    inside the submitted body and carry one of the item error codes of decision 001.
// 2. Invalid headers, paths under /v2 and query strings on the list endpoints are never accepted,
//    never a 5xx, and always answered with problem+json.

import { loadSpec } from "@oisr/server";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type ApiResponse, api, type Json } from "../../src/client.ts";
import type { OrderInput, ReturnInput, ShipmentInput } from "../../src/fixtures.ts";
import { order, returnOf } from "../../src/fixtures.ts";
import { useSystem } from "../../src/harness.ts";
import { targets } from "../../src/targets.ts";

/** The item error codes of the contract (decision 001), read from the spec: `ItemErrorCode`. */
const ITEM_ERROR_CODES = new Set(
  (loadSpec() as unknown as { components: { schemas: { ItemErrorCode: { enum: string[] } } } }).components
    .schemas.ItemErrorCode.enum,
);

// ----- Arbitraries for valid input -----------------------------------------------------------

/**
 * A string of `min`..`max` code points (JSON Schema counts code points): any code point but half
 * surrogates, so control characters, astral planes and combining marks included. Mostly short,
 * sometimes exactly at the limit. U+0000 alone is left out (mapped to U+0001) because the server
 * answers it with a 500 that also fails other callers' ingests: the dedicated test below keeps that
 * failure visible, and this property keeps guarding everything else. Once fixed, drop the map.
 */
function text(min: number, max: number): fc.Arbitrary<string> {
  const noNul = (s: string) => s.replaceAll("\u0000", "\u0001");
  return fc.oneof(
    {
      weight: 5,
      arbitrary: fc.string({ unit: "binary", minLength: min, maxLength: Math.min(max, 8) }).map(noNul),
    },
    { weight: 1, arbitrary: fc.string({ unit: "binary", minLength: max, maxLength: max }).map(noNul) },
  );
}

/** A date-time of RFC 3339 (format: date-time): UTC or with an offset, with or without fractions. */
const dateTime = fc
  .tuple(
    fc.date({
      min: new Date("2000-01-01T00:00:00Z"),
      max: new Date("2099-12-31T00:00:00Z"),
      noInvalidDate: true,
    }),
    fc.constantFrom("Z", "+00:00", "+05:30", "-08:00", "+14:00"),
    fc.boolean(),
  )
  .map(([d, zone, fraction]) => {
    const iso = d.toISOString(); // YYYY-MM-DDTHH:MM:SS.sssZ
    const base = fraction ? iso.slice(0, 23) : iso.slice(0, 19);
    if (zone === "Z" || zone === "+00:00") return base + zone;
    // Same instant, written in another offset.
    const sign = zone.startsWith("-") ? -1 : 1;
    const [h, m] = zone.slice(1).split(":").map(Number) as [number, number];
    const shifted = new Date(d.getTime() + sign * (h * 60 + m) * 60_000).toISOString();
    return (fraction ? shifted.slice(0, 23) : shifted.slice(0, 19)) + zone;
  });

const money = fc.stringMatching(/^-?\d{1,15}(\.\d{1,4})?$/);
const currency = fc.stringMatching(/^[A-Z]{3}$/);
const country = fc.stringMatching(/^[A-Z]{2}$/);
/** Plain addresses every email validator accepts (the format itself is exercised in validation.test.ts). */
const email = fc
  .tuple(fc.stringMatching(/^[a-z0-9]{1,12}(\.[a-z0-9]{1,8})?$/), fc.stringMatching(/^[a-z]{1,10}$/))
  .map(([local, domain]) => `${local}@${domain}.example`);

const address = fc.record(
  {
    name: text(1, 200),
    company: text(0, 200),
    line1: text(1, 200),
    line2: text(0, 200),
    city: text(1, 100),
    region: text(0, 100),
    postal_code: text(0, 32),
    country,
    phone: text(0, 32),
    email,
  },
  { requiredKeys: ["name", "line1", "city", "country"] },
);

const metadata = fc.dictionary(
  text(1, 40).filter((k) => k !== "__proto__"),
  text(0, 500),
  { maxKeys: 50, size: "small" },
);

/** Line ids: mostly plain (so shipments and returns find them), sometimes unicode, sometimes repeated. */
const lineId = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom("L1", "L2", "L3", "L4") },
  { weight: 1, arbitrary: text(1, 128) },
);

const orderLine = fc.record(
  {
    line_id: lineId,
    sku: text(1, 128),
    name: text(0, 500),
    quantity: fc.oneof(fc.integer({ min: 1, max: 5 }), fc.constant(1_000_000_000)),
    unit_price: money,
  },
  { requiredKeys: ["line_id", "sku", "quantity", "unit_price"] },
);

const orderInput: fc.Arbitrary<OrderInput> = fc.record(
  {
    external_id: text(1, 128),
    order_number: text(1, 128),
    source: text(1, 64),
    status: fc.constantFrom("open", "on_hold", "cancelled"),
    currency,
    placed_at: dateTime,
    customer: fc.record({ name: text(0, 200), email, phone: text(0, 32) }, { requiredKeys: [] }),
    ship_to: address,
    bill_to: address,
    shipping_method: text(0, 128),
    lines: fc.array(orderLine, { minLength: 1, maxLength: 4 }),
    totals: fc.record({ subtotal: money, discount: money, tax: money, shipping: money, total: money }),
    metadata,
    source_updated_at: dateTime,
  },
  {
    requiredKeys: ["external_id", "source", "currency", "placed_at", "ship_to", "lines", "source_updated_at"],
  },
) as fc.Arbitrary<OrderInput>;

/** An order reference: one of the batch's orders (by external id), or one that does not exist. */
function orderRef(orders: OrderInput[]) {
  return fc.oneof(
    { weight: 5, arbitrary: fc.constantFrom(...orders) },
    {
      weight: 1,
      arbitrary: text(1, 128).map((id) => ({ external_id: id, lines: [] }) as unknown as OrderInput),
    },
  );
}

/** A line of the referenced order, or an unknown one; a quantity around the ordered one. */
function lineRef(o: OrderInput) {
  const known = o.lines.map((l) => ({ line_id: l.line_id, quantity: l.quantity }));
  return fc
    .oneof(...(known.length > 0 ? [{ weight: 6, arbitrary: fc.constantFrom(...known) }] : []), {
      weight: 1,
      arbitrary: lineId.map((id) => ({ line_id: id, quantity: 1 })),
    })
    .chain((l) =>
      fc.record({
        line_id: fc.constant(l.line_id),
        quantity: fc.oneof(
          fc.integer({ min: 1, max: Math.max(1, Math.min(l.quantity, 3)) }),
          fc.constant(Math.min(l.quantity + 1, 1_000_000_000)),
        ),
      }),
    );
}

function shipmentInput(orders: OrderInput[]): fc.Arbitrary<ShipmentInput> {
  return orderRef(orders).chain((o) =>
    fc.record(
      {
        external_id: text(1, 128),
        order_id: fc.constant(o.external_id),
        carrier: text(1, 64),
        service: text(0, 128),
        tracking_number: text(1, 128),
        tracking_url: fc.stringMatching(/^[a-z0-9]{1,20}$/).map((p) => `https://track.example/${p}?n=1`),
        shipped_at: dateTime,
        location_id: text(1, 128),
        lines: fc.array(lineRef(o), { minLength: 1, maxLength: 3 }),
      },
      { requiredKeys: ["external_id", "order_id", "carrier", "shipped_at", "lines"] },
    ),
  ) as fc.Arbitrary<ShipmentInput>;
}

function returnInput(orders: OrderInput[]): fc.Arbitrary<ReturnInput> {
  return orderRef(orders).chain((o) =>
    fc.record(
      {
        external_id: text(1, 128),
        order_id: fc.constant(o.external_id),
        status: fc.constantFrom("requested", "approved", "rejected", "cancelled", "in_transit", "received"),
        reason: text(0, 500),
        customer_note: text(0, 2000),
        items: fc.array(
          fc
            .tuple(
              lineRef(o),
              fc.constantFrom(
                "damaged",
                "defective",
                "wrong_item",
                "not_as_described",
                "no_longer_needed",
                "size_or_fit",
                "other",
              ),
              fc.option(text(1, 128), { nil: undefined }),
              fc.option(text(0, 2000), { nil: undefined }),
            )
            .map(([l, reason_code, sku, note]) => ({
              ...l,
              reason_code,
              ...(sku === undefined ? {} : { sku }),
              ...(note === undefined ? {} : { note }),
            })),
          { minLength: 1, maxLength: 3 },
        ),
        tracking: fc.record({ carrier: text(1, 64), tracking_number: text(1, 128) }),
        requested_at: dateTime,
        source_updated_at: dateTime,
      },
      { requiredKeys: ["external_id", "order_id", "items", "requested_at", "source_updated_at"] },
    ),
  ) as fc.Arbitrary<ReturnInput>;
}

/** Orders, then shipments and returns of those orders (some of other orders, lines or quantities). */
const scenario = fc.array(orderInput, { minLength: 1, maxLength: 3 }).chain((orders) =>
  fc.record({
    orders: fc.constant(orders),
    shipments: fc.array(shipmentInput(orders), { minLength: 0, maxLength: 2 }),
    returns: fc.array(returnInput(orders), { minLength: 0, maxLength: 2 }),
  }),
);

// ----- Checks --------------------------------------------------------------------------------

/** The node a JSON Pointer (RFC 6901) names in `doc`, or undefined when it leads nowhere. */
function resolve(doc: unknown, pointer: string): { found: boolean; value?: unknown } {
  if (pointer === "") return { found: true, value: doc };
  if (!pointer.startsWith("/")) return { found: false };
  let node: unknown = doc;
  for (const raw of pointer.slice(1).split("/")) {
    const key = raw.replaceAll("~1", "/").replaceAll("~0", "~");
    if (Array.isArray(node)) {
      if (!/^(0|[1-9]\d*)$/.test(key) || Number(key) >= node.length) return { found: false };
      node = node[Number(key)];
    } else if (node !== null && typeof node === "object" && Object.hasOwn(node, key)) {
      node = (node as Record<string, unknown>)[key];
    } else return { found: false };
  }
  return { found: true, value: node };
}

function checkFinal(record: Json, body: Record<string, unknown[]>, items: string, context: string): void {
  expect(["succeeded", "failed"], context).toContain(record.status);
  expect(record.item_count, context).toBe(body[items]?.length);
  if (record.status === "succeeded") {
    expect(record.result.items, context).toHaveLength(body[items]?.length ?? -1);
    for (const item of record.result.items)
      expect(["created", "updated", "unchanged", "stale"], context).toContain(item.outcome);
    expect(record.errors, context).toEqual([]);
    return;
  }
  expect(record.result, context).toBeNull();
  expect(record.errors.length, context).toBeGreaterThan(0);
  for (const e of record.errors) {
    expect(ITEM_ERROR_CODES.has(e.code), `${context}: unknown item error code ${e.code}`).toBe(true);
    expect(typeof e.message, context).toBe("string");
    expect(resolve(body, e.pointer).found, `${context}: pointer ${e.pointer} is not inside the body`).toBe(
      true,
    );
    // Every pointer names something inside the batch, not the whole body.
    expect(e.pointer.startsWith(`/${items}/`), `${context}: pointer ${e.pointer}`).toBe(true);
  }
}

function expectRefused(res: ApiResponse, context: string): void {
  const at = `${context} → ${res.status} ${res.text.slice(0, 300)}`;
  expect(res.status, at).not.toBe(202);
  expect(res.status, at).toBeGreaterThanOrEqual(400);
  expect(res.status, at).toBeLessThan(500);
  expect(res.headers.get("content-type"), at).toMatch(/^application\/problem\+json/);
  expect(res.body?.status, at).toBe(res.status);
  expect(typeof res.body?.code, at).toBe("string");
}

const LIST_QUERY_KEYS: Record<string, string[]> = {
  "/orders": ["cursor", "limit", "status", "source", "updated_since"],
  "/returns": ["cursor", "limit", "status", "order_id", "updated_since"],
  "/requests": ["cursor", "limit", "status", "kind"],
  "/inventory": ["cursor", "limit", "location_id", "sku"],
  "/webhook_subscriptions": ["cursor", "limit"],
};
/** Paths a GET answers with 2xx (lists and the spec): the path property leaves them out. */
const GET_OK = new Set([...Object.keys(LIST_QUERY_KEYS), "/openapi.json"]);

describe.each(targets)("generated input (property) — $name", (target) => {
  const h = useSystem(target);

  it("valid order, shipment and return batches are always accepted and end succeeded or failed; a failure's pointers resolve inside the body and its codes are decision 001's", async () => {
    let runs = 0;
    let failed = 0;
    await fc.assert(
      fc.asyncProperty(scenario, async (s) => {
        runs++;
        // A fresh account per run: what a run finds depends only on what it submitted.
        const c = await h.account();
        type Batch = { path: string; items: string; body: Record<string, unknown[]> };
        const batches: Batch[] = [
          { path: "/ingest/orders", items: "orders", body: { orders: s.orders } },
          { path: "/ingest/shipments", items: "shipments", body: { shipments: s.shipments } },
          { path: "/ingest/returns", items: "returns", body: { returns: s.returns } },
        ];
        const submitted: (Batch & { ack: ApiResponse })[] = [];
        for (const b of batches.filter((x) => x.body[x.items]?.length)) {
          const res = await c.post(b.path, b.body);
          const context = `POST ${b.path} ${JSON.stringify(b.body).slice(0, 400)} → ${res.text.slice(0, 500)}`;
          expect(res.status, context).toBe(202);
          submitted.push({ ...b, ack: res });
        }
        // Requests of one account apply in order: when the last is final, so are the others.
        const last = submitted.at(-1) as (typeof submitted)[number];
        await c.wait(last.ack.body.request_id, { intervalMs: 5, timeoutMs: 20_000 });
        for (const sub of submitted) {
          const record = (await c.get(`/requests/${sub.ack.body.request_id}`)).body;
          if (record.status === "failed") failed++;
          checkFinal(record, sub.body, sub.items, `POST ${sub.path} ${JSON.stringify(record).slice(0, 600)}`);
        }
      }),
      { numRuns: 100 },
    );
    // The generator reaches both outcomes.
    expect(failed).toBeGreaterThan(0);
    expect(failed).toBeLessThan(runs * 3);
  });

  it("a schema-valid body with U+0000 in a string is never a 5xx, and never fails the ingests of other accounts committed with it", async () => {
    const [a, b] = [await h.account(), await h.account()];
    for (let round = 0; round < 3; round++) {
      const nul = order({ source: "pos\u00001", customer: { name: "A\u0000B" } });
      const [mine, ...others] = await Promise.all([
        a.post("/ingest/orders", { orders: [nul] }),
        ...Array.from({ length: 20 }, () => b.post("/ingest/orders", { orders: [order()] })),
      ]);
      // Other accounts' valid calls that shared its group commit are unaffected.
      expect(
        others.map((r) => r.status).filter((s) => s !== 202),
        `round ${round}: other account`,
      ).toEqual([]);
      // The call itself is accepted (it is valid by the schema) or refused as invalid (400), never a 5xx.
      const res = mine as ApiResponse;
      const context = `round ${round}: ${res.status} ${res.text.slice(0, 300)}`;
      expect([202, 400], context).toContain(res.status);
      if (res.status === 202) {
        const record = await a.wait(res.body.request_id);
        checkFinal(record, { orders: [nul] }, "orders", JSON.stringify(record));
      } else expect(res.headers.get("content-type"), context).toMatch(/^application\/problem\+json/);
    }
  });

  it("invalid Authorization, Content-Type or Idempotency-Key headers are never accepted, never a 5xx, always problem+json", async () => {
    const c = await h.account();
    const authorization = fc.oneof(
      fc.constant(undefined),
      // A lower-case scheme and extra spaces are valid (RFC 9110 §11.1, §11.4): see the test below.
      fc.constantFrom("", "Bearer", "Bearer ", `Basic ${c.token}`, `Bearer${c.token}`),
      fc.constant(`Bearer ${c.token}x`),
      fc.constant(`Bearer ${c.token.slice(0, -1)}`),
      fc.string({ unit: "grapheme-ascii", maxLength: 60 }).map((s) => `Bearer ${s}`),
      fc.string({ unit: "binary", maxLength: 40 }),
      fc.constant(`Bearer ${"x".repeat(10_000)}`),
    );
    const contentType = fc.oneof(
      fc.constantFrom(
        "text/plain",
        "application/xml",
        "application/x-www-form-urlencoded",
        "multipart/form-data; boundary=x",
        "application/octet-stream",
        "image/png",
        "",
      ),
      fc
        .tuple(fc.stringMatching(/^[a-z]{1,10}$/), fc.stringMatching(/^[a-z.-]{1,12}$/))
        .filter(([, sub]) => !sub.includes("json"))
        .map(([t, sub]) => `${t}/${sub}`),
    );
    const controlChar = fc.constantFrom(
      ...Array.from({ length: 32 }, (_, i) => i)
        .filter((i) => ![0, 9, 10, 13].includes(i)) // fetch refuses NUL, LF and CR; HTAB is allowed whitespace
        .map((i) => String.fromCharCode(i)),
      "\x7f",
    );
    const idempotencyKey = fc.oneof(
      fc
        .tuple(fc.stringMatching(/^[a-z0-9]{0,20}$/), controlChar, fc.stringMatching(/^[a-z0-9]{1,20}$/))
        .map(([a, ctl, b]) => `${a}${ctl}${b}`),
      fc.integer({ min: 256, max: 2000 }).map((n) => "k".repeat(n)),
    );
    // Each header is valid or one of the invalid variants; at least one is invalid.
    const headers = fc
      .record({
        authorization: fc.option(authorization, { nil: null }),
        contentType: fc.option(contentType, { nil: null }),
        idempotencyKey: fc.option(idempotencyKey, { nil: null }),
      })
      .filter((r) => r.authorization !== null || r.contentType !== null || r.idempotencyKey !== null);

    await fc.assert(
      fc.asyncProperty(headers, fc.constantFrom("/ingest/orders", "/ingest/returns"), async (hs, path) => {
        const sent: Record<string, string> = {};
        if (hs.authorization === null) sent.authorization = `Bearer ${c.token}`;
        else if (hs.authorization !== undefined) sent.authorization = hs.authorization;
        sent["content-type"] = hs.contentType ?? "application/json";
        if (hs.idempotencyKey !== null) sent["idempotency-key"] = hs.idempotencyKey;
        const body = path === "/ingest/orders" ? { orders: [order()] } : { returns: [returnOf("ORD-1")] };
        let res: ApiResponse;
        try {
          // A client without a token of its own: every header sent is the generated one.
          res = await api(h.system).request("POST", path, { body: JSON.stringify(body), headers: sent });
        } catch (err) {
          // fetch itself refused the header (not sent): nothing to check.
          fc.pre(!(err instanceof TypeError));
          throw err;
        }
        const context = `POST ${path} ${JSON.stringify(sent).slice(0, 300)}`;
        expectRefused(res, context);
        // Authentication comes first: a bad Authorization is 401 whatever else is wrong.
        if (hs.authorization !== null) expect(res.status, context).toBe(401);
      }),
      { numRuns: 100 },
    );
    expect((await c.get("/requests")).body.data).toEqual([]);
  });

  it("random paths under /v2, with any method, are never accepted, never a 5xx, always problem+json", async () => {
    const c = await h.account();
    const segment = fc
      .oneof(
        fc.constantFrom(
          "orders",
          "returns",
          "requests",
          "inventory",
          "ingest",
          "webhook_subscriptions",
          "dispositions",
          "test",
          "rotate_secret",
          "deliveries",
          "openapi.json",
          "",
        ),
        fc.string({ unit: "binary", minLength: 1, maxLength: 20 }).map(encodeURIComponent),
        fc.stringMatching(/^[A-Za-z0-9_.~-]{1,30}$/),
      )
      // Dot segments would leave /v2 once the URL is normalized.
      .filter((s) => !/^(\.|%2e)+$/i.test(s));
    const method = fc.constantFrom("GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS");
    await fc.assert(
      fc.asyncProperty(fc.array(segment, { minLength: 1, maxLength: 5 }), method, async (segments, m) => {
        const path = `/${segments.join("/")}`;
        const normalized = path.replace(/\/+$/, "") || "/";
        // Reads that exist answer 2xx; HEAD has no body to check; OPTIONS is CORS preflight.
        fc.pre(!(m === "GET" && GET_OK.has(normalized)) && m !== "HEAD" && m !== "OPTIONS");
        const res = await c.request(m, `/v2${path}`, m === "GET" || m === "DELETE" ? {} : { body: {} });
        expectRefused(res, `${m} /v2${path}`);
      }),
      { numRuns: 150 },
    );
    expect((await c.get("/requests")).body.data).toEqual([]);
  });

  it("random query strings on the list endpoints (always one unknown key) are 400 problem+json, never a 5xx", async () => {
    const c = await h.account();
    const value = fc.oneof(
      fc.string({ unit: "binary", maxLength: 30 }),
      fc.integer().map(String),
      fc.constantFrom("", "0", "-1", "201", "1e3", "null", "[]", "{}", "open", "2025-01-01T00:00:00Z"),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...Object.keys(LIST_QUERY_KEYS)),
        fc.string({ unit: "binary", minLength: 1, maxLength: 20 }),
        value,
        fc.array(fc.tuple(fc.constantFrom("cursor", "limit", "status", "kind", "sku", "source"), value), {
          maxLength: 3,
        }),
        async (path, unknownKey, unknownValue, known) => {
          fc.pre(!(LIST_QUERY_KEYS[path] as string[]).includes(unknownKey));
          const q = new URLSearchParams();
          q.append(unknownKey, unknownValue);
          for (const [k, v] of known) q.append(k, v);
          const res = await c.get(`${path}?${q}`);
          const context = `GET ${path}?${q}`;
          expectRefused(res, context);
          expect(res.status, context).toBe(400);
        },
      ),
      { numRuns: 100 },
    );
  });
});
