// docs/product.md §3 and §7: what is refused before anything is stored.
import { describe, expect, it } from "vitest";
import { send } from "../src/client.ts";
import { INGEST_ENDPOINTS, manyItems, order } from "../src/fixtures.ts";
import { type Client, expectProblem, useSystem } from "../src/harness.ts";
import { targets } from "../src/targets.ts";

const pointersOf = (problem: { errors?: { pointer: string }[] }) =>
  (problem.errors ?? []).map((e) => e.pointer);

async function expectNothingStored(c: Client) {
  const res = await c.get("/requests");
  expect(res.status).toBe(200);
  expect(res.body.data).toEqual([]);
}

describe.each(targets)("validation — $name", (target) => {
  const h = useSystem(target);

  it.each(["{", '{"orders": [', "{'orders': []}", '{"orders": []} trailing'])(
    "malformed JSON %j is 400 invalid_json",
    async (text) => {
      const c = await h.account();
      expectProblem(
        await c.post("/ingest/orders", text, { "content-type": "application/json" }),
        400,
        "invalid_json",
      );
      await expectNothingStored(c);
    },
  );

  // Valid JSON that is not an object breaks the schema, not the JSON syntax: validation_failed at "".
  describe.each([
    ["POST", "/ingest/orders"],
    ["POST", "/ingest/inventory"],
    ["POST", "/ingest/returns/RMA-1/dispositions"],
    ["POST", "/webhook_subscriptions"],
    ["PATCH", "/webhook_subscriptions/whs_01JN8S7QQT86WJ5VH5F0CXSRN7"],
  ])("a top-level JSON value other than an object on %s %s", (method, path) => {
    it.each(["null", "1", '"x"', "[]", "true", " false ", "[1, 2]"])(
      "%s is 400 validation_failed at the whole body and is not stored",
      async (text) => {
        const c = await h.account();
        const problem = expectProblem(
          await c.request(method, path, { body: text, headers: { "content-type": "application/json" } }),
          400,
          "validation_failed",
        );
        expect(problem.errors).toEqual([
          { pointer: "", code: "type", message: expect.stringMatching(/\bobject\b/) },
        ]);
        await expectNothingStored(c);
        expect((await c.get("/webhook_subscriptions")).body.data).toEqual([]);
      },
    );
  });

  describe("schema violations are 400 validation_failed with a JSON Pointer per problem", () => {
    const o = () => order();
    const cases: [string, () => unknown, string, string][] = [
      [
        "quantity 0",
        () => ({
          orders: [{ ...o(), lines: [{ line_id: "L1", sku: "S", quantity: 0, unit_price: "1.00" }] }],
        }),
        "/orders/0/lines/0/quantity",
        "minimum",
      ],
      [
        "a fractional quantity",
        () => ({
          orders: [{ ...o(), lines: [{ line_id: "L1", sku: "S", quantity: 1.5, unit_price: "1.00" }] }],
        }),
        "/orders/0/lines/0/quantity",
        "type",
      ],
      [
        "a number as price",
        () => ({ orders: [{ ...o(), lines: [{ line_id: "L1", sku: "S", quantity: 1, unit_price: 1 }] }] }),
        "/orders/0/lines/0/unit_price",
        "type",
      ],
      [
        "a lower-case currency",
        () => ({ orders: [{ ...o(), currency: "usd" }] }),
        "/orders/0/currency",
        "pattern",
      ],
      [
        "a missing ship_to",
        () => ({ orders: [{ ...o(), ship_to: undefined }] }),
        "/orders/0/ship_to",
        "required",
      ],
      [
        "a bad date-time",
        () => ({ orders: [{ ...o(), placed_at: "yesterday" }] }),
        "/orders/0/placed_at",
        "format",
      ],
      [
        "null for an optional field",
        () => ({ orders: [{ ...o(), order_number: null }] }),
        "/orders/0/order_number",
        "type",
      ],
      ["a derived status", () => ({ orders: [{ ...o(), status: "shipped" }] }), "/orders/0/status", "enum"],
      [
        "an unknown field",
        () => ({ orders: [{ ...o(), colour: "red" }] }),
        "/orders/0/colour",
        "additionalProperties",
      ],
      [
        "an unknown top-level field",
        () => ({ orders: [o()], dry_run: true }),
        "/dry_run",
        "additionalProperties",
      ],
      [
        "a server-owned id",
        () => ({ orders: [{ ...o(), id: "ord_01JP9YVEKTNDE3MZX9B154EWRG" }] }),
        "/orders/0/id",
        "additionalProperties",
      ],
      [
        "a server-owned version",
        () => ({ orders: [{ ...o(), version: 3 }] }),
        "/orders/0/version",
        "additionalProperties",
      ],
      [
        "server-owned timestamps",
        () => ({ orders: [{ ...o(), created_at: "2025-01-01T00:00:00Z" }] }),
        "/orders/0/created_at",
        "additionalProperties",
      ],
      [
        "server-owned shipments",
        () => ({ orders: [{ ...o(), shipments: [] }] }),
        "/orders/0/shipments",
        "additionalProperties",
      ],
      [
        "a derived line quantity",
        () => ({
          orders: [
            {
              ...o(),
              lines: [{ line_id: "L1", sku: "S", quantity: 1, unit_price: "1.00", quantity_shipped: 1 }],
            },
          ],
        }),
        "/orders/0/lines/0/quantity_shipped",
        "additionalProperties",
      ],
      ["a missing items array", () => ({}), "/orders", "required"],
      [
        "metadata with 51 keys",
        () => ({
          orders: [
            { ...o(), metadata: Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, "v"])) },
          ],
        }),
        "/orders/0/metadata",
        "maxProperties",
      ],
      [
        "501 lines",
        () => ({
          orders: [
            {
              ...o(),
              lines: Array.from({ length: 501 }, (_, i) => ({
                line_id: `L${i}`,
                sku: "S",
                quantity: 1,
                unit_price: "1.00",
              })),
            },
          ],
        }),
        "/orders/0/lines",
        "maxItems",
      ],
      [
        "an external_id of 129 characters",
        () => ({ orders: [{ ...o(), external_id: "x".repeat(129) }] }),
        "/orders/0/external_id",
        "maxLength",
      ],
      [
        "an empty external_id",
        () => ({ orders: [{ ...o(), external_id: "" }] }),
        "/orders/0/external_id",
        "minLength",
      ],
      [
        "a price with 5 decimals",
        () => ({
          orders: [{ ...o(), lines: [{ line_id: "L1", sku: "S", quantity: 1, unit_price: "1.00001" }] }],
        }),
        "/orders/0/lines/0/unit_price",
        "pattern",
      ],
      [
        "a lower-case country",
        () => ({ orders: [{ ...o(), ship_to: { name: "A", line1: "B", city: "C", country: "us" } }] }),
        "/orders/0/ship_to/country",
        "pattern",
      ],
      ["a body that is an array", () => [], "", "type"],
    ];

    it.each(cases)("%s", async (_name, body, pointer, code) => {
      const c = await h.account();
      const problem = expectProblem(await c.post("/ingest/orders", body()), 400, "validation_failed");
      expect(problem.errors).toContainEqual({ pointer, code, message: expect.any(String) });
      await expectNothingStored(c);
    });

    it("every problem of a body is listed, not only the first", async () => {
      const c = await h.account();
      const body = {
        orders: [
          { ...o(), currency: "usd", lines: [{ line_id: "L1", sku: "S", quantity: 0, unit_price: "1.00" }] },
          { ...o(), id: "ord_01JP9YVEKTNDE3MZX9B154EWRG" },
        ],
      };
      const problem = expectProblem(await c.post("/ingest/orders", body), 400, "validation_failed");
      expect(pointersOf(problem)).toEqual(
        expect.arrayContaining(["/orders/0/currency", "/orders/0/lines/0/quantity", "/orders/1/id"]),
      );
    });

    it.each([
      ["a/b", "/orders/0/a~1b"],
      ["~x", "/orders/0/~0x"],
    ])("an unknown member named %j is pointed at with RFC 6901 escaping (%s)", async (name, pointer) => {
      const c = await h.account();
      const problem = expectProblem(
        await c.post("/ingest/orders", { orders: [{ ...o(), [name]: 1 }] }),
        400,
        "validation_failed",
      );
      expect(pointersOf(problem)).toEqual([pointer]);
    });

    it("other endpoints point into their own bodies", async () => {
      const c = await h.account();
      const shipment = {
        shipments: [
          {
            external_id: "S1",
            order_id: "O1",
            carrier: "UPS",
            shipped_at: "2025-01-01T00:00:00Z",
            lines: [{ line_id: "L1", quantity: -1 }],
          },
        ],
      };
      expect(
        pointersOf(expectProblem(await c.post("/ingest/shipments", shipment), 400, "validation_failed")),
      ).toContain("/shipments/0/lines/0/quantity");
      const ret = {
        returns: [
          {
            external_id: "R1",
            order_id: "O1",
            items: [{ line_id: "L1", quantity: 1, reason_code: "bored" }],
            requested_at: "2025-01-01T00:00:00Z",
            source_updated_at: "2025-01-01T00:00:00Z",
          },
        ],
      };
      expect(
        pointersOf(expectProblem(await c.post("/ingest/returns", ret), 400, "validation_failed")),
      ).toContain("/returns/0/items/0/reason_code");
      const completed = {
        returns: [
          {
            ...ret.returns[0],
            items: [{ line_id: "L1", quantity: 1, reason_code: "other" }],
            status: "completed",
          },
        ],
      };
      expect(
        pointersOf(expectProblem(await c.post("/ingest/returns", completed), 400, "validation_failed")),
      ).toContain("/returns/0/status");
      const dsp = {
        dispositions: [{ line_id: "L1", quantity: 1, outcome: "burn", decided_at: "2025-01-01T00:00:00Z" }],
      };
      expect(
        pointersOf(
          expectProblem(await c.post("/ingest/returns/RMA-1/dispositions", dsp), 400, "validation_failed"),
        ),
      ).toContain("/dispositions/0/outcome");
      const inv = {
        snapshots: [
          {
            location_id: "WH",
            as_of: "2025-01-01T00:00:00Z",
            mode: "delta",
            items: [{ sku: "S", on_hand: -1, available: 0 }],
          },
        ],
      };
      expect(
        pointersOf(expectProblem(await c.post("/ingest/inventory", inv), 400, "validation_failed")),
      ).toEqual(expect.arrayContaining(["/snapshots/0/mode"]));
      await expectNothingStored(c);
    });
  });

  describe.each(INGEST_ENDPOINTS)("batch size on $kind", (endpoint) => {
    it("0 items is 400 validation_failed (minItems) and is not stored", async () => {
      const c = await h.account();
      const problem = expectProblem(
        await c.post(endpoint.path(), { [endpoint.items]: [] }),
        400,
        "validation_failed",
      );
      expect(problem.errors).toContainEqual({
        pointer: `/${endpoint.items}`,
        code: "minItems",
        message: expect.any(String),
      });
      await expectNothingStored(c);
    });

    it("1001 items is 400 validation_failed (maxItems) and is not stored", async () => {
      const c = await h.account();
      const problem = expectProblem(
        await c.post(endpoint.path(), { [endpoint.items]: manyItems(endpoint.kind, 1001) }),
        400,
        "validation_failed",
      );
      expect(problem.errors).toContainEqual({
        pointer: `/${endpoint.items}`,
        code: "maxItems",
        message: expect.any(String),
      });
      await expectNothingStored(c);
    });

    it("1000 items is accepted", async () => {
      const c = await h.account();
      const res = await c.ingest(endpoint.path(), { [endpoint.items]: manyItems(endpoint.kind, 1000) });
      expect((await c.get(`/requests/${res.body.request_id}`)).body.item_count).toBe(1000);
    });
  });

  it("a body over 5 MiB is 413 payload_too_large and is not stored", async () => {
    const c = await h.account();
    const body = JSON.stringify({ orders: [{ ...order(), metadata: { pad: "x".repeat(5 * 1024 * 1024) } }] });
    expectProblem(
      await c.post("/ingest/orders", body, { "content-type": "application/json" }),
      413,
      "payload_too_large",
    );
    await expectNothingStored(c);
  });

  it("a body just under 5 MiB is not refused for its size", async () => {
    const c = await h.account();
    const body = JSON.stringify({
      orders: [{ ...order(), metadata: { pad: "x".repeat(5 * 1024 * 1024 - 2000) } }],
    });
    // Too long for metadata values (500), so a schema error, not 413.
    expectProblem(
      await c.post("/ingest/orders", body, { "content-type": "application/json" }),
      400,
      "validation_failed",
    );
  });

  it.each([
    ["text/plain", JSON.stringify({ orders: [order()] })],
    ["application/x-www-form-urlencoded", "orders=1"],
    ["application/xml", "<orders/>"],
  ])("a %s body is 415 unsupported_media_type and is not stored", async (type, text) => {
    const c = await h.account();
    expectProblem(
      await c.post("/ingest/orders", text, { "content-type": type }),
      415,
      "unsupported_media_type",
    );
    await expectNothingStored(c);
  });

  it("a body without Content-Type is 415 unsupported_media_type", async () => {
    const c = await h.account();
    const bytes = new TextEncoder().encode(JSON.stringify({ orders: [order()] }));
    expectProblem(await c.post("/ingest/orders", bytes), 415, "unsupported_media_type");
    await expectNothingStored(c);
  });

  it("application/json with a charset is accepted", async () => {
    const c = await h.account();
    await c.ingest("/ingest/orders", JSON.stringify({ orders: [order()] }), {
      "content-type": "application/json; charset=utf-8",
    });
  });

  it.each(["/nope", "/orders/x/y", "/ingest", "/ingest/widgets", "/v1/orders"])(
    "an unknown path %s is 404 not_found",
    async (path) => {
      const c = await h.account();
      const url = path.startsWith("/v1") ? `${h.system.origin}${path}` : path;
      expectProblem(await c.get(url), 404, "not_found");
    },
  );

  it.each([
    ["DELETE", "/orders", "GET"],
    ["POST", "/orders", "GET"],
    ["PUT", "/orders/ORD-1", "GET"],
    ["GET", "/ingest/orders", "POST"],
    ["PATCH", "/ingest/inventory", "POST"],
    ["DELETE", "/requests", "GET"],
    ["POST", "/returns/RMA-1", "GET"],
    ["PUT", "/inventory", "GET"],
  ])("%s %s is 405 method_not_allowed with Allow: %s", async (method, path, allow) => {
    const c = await h.account();
    const res = await c.request(method, path, method === "GET" || method === "DELETE" ? {} : { body: {} });
    expectProblem(res, 405, "method_not_allowed");
    expect(res.headers.get("allow")?.split(/\s*,\s*/)).toEqual([allow]);
    await expectNothingStored(c);
  });

  describe.each(["/orders", "/returns", "/inventory", "/requests", "/webhook_subscriptions"])(
    "bad queries on %s",
    (path) => {
      it.each([
        ["limit=0", "/query/limit"],
        ["limit=201", "/query/limit"],
        ["limit=ten", "/query/limit"],
        ["colour=red", "/query/colour"],
      ])("%s is 400 validation_failed at %s", async (q, pointer) => {
        const c = await h.account();
        const problem = expectProblem(await c.get(`${path}?${q}`), 400, "validation_failed");
        expect(pointersOf(problem)).toContain(pointer);
      });

      it("limit=1 and limit=200 are fine", async () => {
        const c = await h.account();
        expect((await c.get(`${path}?limit=1`)).status).toBe(200);
        expect((await c.get(`${path}?limit=200`)).status).toBe(200);
      });
    },
  );

  it.each([
    ["/orders?status=lost", "/query/status"],
    ["/orders?updated_since=yesterday", "/query/updated_since"],
    ["/returns?status=lost", "/query/status"],
    ["/requests?status=done", "/query/status"],
    ["/requests?kind=widgets", "/query/kind"],
  ])("%s is 400 validation_failed at %s", async (path, pointer) => {
    const c = await h.account();
    expect(pointersOf(expectProblem(await c.get(path), 400, "validation_failed"))).toContain(pointer);
  });

  it("GET /requests/{id} with something other than a UUID is 400 at /params/request_id", async () => {
    const c = await h.account();
    expect(
      pointersOf(expectProblem(await c.get("/requests/not-a-uuid"), 400, "validation_failed")),
    ).toContain("/params/request_id");
  });

  it("an identifier longer than 128 characters is 400", async () => {
    const c = await h.account();
    expectProblem(await c.get(`/orders/${"x".repeat(129)}`), 400, "validation_failed");
  });

  it("nothing refused is ever stored, across every kind of refusal", async () => {
    const c = await h.account();
    const refusals = [
      c.post("/ingest/orders", "{", { "content-type": "application/json" }),
      c.post("/ingest/orders", { orders: [] }),
      c.post("/ingest/orders", { orders: [{ ...order(), id: "x" }] }),
      c.post("/ingest/orders", "x", { "content-type": "text/plain" }),
      send(c.system, "POST", "/ingest/orders", { body: { orders: [order()] } }),
    ];
    for (const res of await Promise.all(refusals)) expect(res.status).toBeGreaterThanOrEqual(400);
    await expectNothingStored(c);
  });
});
