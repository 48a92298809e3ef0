import { describe, expect, it } from "vitest";
import { BodyValidator } from "./body-validator.ts";
import { at, disposition, dispositions, order, returnOf, shipment, snapshot, uid } from "./fixtures.ts";
import { openapiDocument } from "./spec.ts";

const validator = new BodyValidator(openapiDocument);
const schema = (name: string) => ({ $ref: `#/components/schemas/${name}` });
/** The validator fills in defaults: validate a copy, so the assertions see the fixture as built. */
const problems = (name: string, body: unknown) => validator.validate(schema(name), structuredClone(body));

describe("fixtures: every builder yields a body the spec accepts", () => {
  it.each([
    ["OrdersIngestBody", () => ({ orders: [order(), order()] })],
    ["ShipmentsIngestBody", () => ({ shipments: [shipment("ORD-1")] })],
    ["ReturnsIngestBody", () => ({ returns: [returnOf("ORD-1")] })],
    ["DispositionsIngestBody", () => ({ dispositions: [...dispositions(), disposition("L2", 1)] })],
    ["InventoryIngestBody", () => ({ snapshots: [snapshot(), snapshot({ mode: "partial" })] })],
  ])("%s", (name, body) => {
    expect(problems(name, body())).toBeNull();
  });

  it("an override that breaks the schema is still refused (the bodies are really validated)", () => {
    expect(problems("OrdersIngestBody", { orders: [order({ currency: "usd" })] })).not.toBeNull();
  });
});

describe("fixtures: the documented convention", () => {
  it("takes the spec's example order #1042, its lines renamed L1 × 2 and L2 × 1", () => {
    const o = order();
    expect(o).toMatchObject({ order_number: "#1042", source: "shopify", currency: "USD" });
    expect(o.lines.map((l) => [l.line_id, l.quantity])).toEqual([
      ["L1", 2],
      ["L2", 1],
    ]);
  });

  it("names only lines of order() in the shipment, the return and the dispositions", () => {
    expect(shipment("x").lines).toEqual([
      { line_id: "L1", quantity: 2 },
      { line_id: "L2", quantity: 1 },
    ]);
    expect(returnOf("x").items.map((i) => [i.line_id, i.quantity])).toEqual([
      ["L1", 1],
      ["L2", 1],
    ]);
    expect(dispositions().map((d) => [d.line_id, d.quantity, d.outcome])).toEqual([
      ["L1", 1, "restock"],
      ["L2", 1, "dispose"],
    ]);
  });

  it("gives every call a fresh external id (a snapshot a fresh location)", () => {
    for (const make of [
      () => order().external_id,
      () => shipment("x").external_id,
      () => returnOf("x").external_id,
      () => disposition("L1", 1).external_id,
      () => snapshot().location_id,
    ]) {
      expect(make()).not.toBe(make());
    }
    expect(new Set(dispositions().map((d) => d.external_id)).size).toBe(2);
    expect(uid("WH")).toMatch(/^WH-[0-9a-f]{10}$/);
  });

  it("lays every timestamp on one timeline from the example order's placed_at", () => {
    const spec = openapiDocument as unknown as {
      paths: Record<string, { post: { requestBody: { content: Record<string, Record<string, unknown>> } } }>;
    };
    const examples = spec.paths["/ingest/orders"]?.post.requestBody.content["application/json"]?.examples as {
      shopify: { value: { orders: { placed_at: string }[] } };
    };
    expect(at(0)).toBe(new Date(examples.shopify.value.orders[0]?.placed_at ?? "").toISOString());
    const o = order();
    const r = returnOf(o.external_id);
    const times = [
      o.placed_at,
      o.source_updated_at,
      shipment("x").shipped_at,
      r.requested_at,
      r.source_updated_at,
    ];
    expect(times).toEqual([at(0), at(1), at(60), at(120), at(121)]);
    expect(dispositions().map((d) => d.decided_at)).toEqual([at(240), at(241)]);
    expect(Date.parse(at(2))).toBeGreaterThan(Date.parse(o.source_updated_at));
  });

  it("merges overrides last", () => {
    const o = order({ external_id: "A", lines: [], status: "cancelled" });
    expect([o.external_id, o.lines, o.status]).toEqual(["A", [], "cancelled"]);
    expect(shipment("x", { order_id: "y" }).order_id).toBe("y");
    expect(disposition("L2", 3, { outcome: "dispose" })).toMatchObject({
      line_id: "L2",
      quantity: 3,
      outcome: "dispose",
    });
  });

  it("returns independent copies: mutating one fixture leaves the next intact", () => {
    const first = order();
    first.ship_to.city = "Elsewhere";
    (first.lines[0] as { sku: string }).sku = "CHANGED";
    const second = order();
    expect(second.ship_to.city).toBe("Portland");
    expect(second.lines[0]?.sku).toBe("TEE-ORG-BLK-M");
  });
});
