// Valid request bodies for every suite and bench/: the request-body examples of the spec's ingest
// operations, read from the embedded document, so a fixture cannot drift from what the spec
// documents. Tests override what they exercise (overrides are merged last, shallowly).
//
// The one convention, applied to every example:
// - Lines: the shopify example order (#1042) has two lines; their ids are renamed `L1` (the tee,
//   quantity 2) and `L2` (the mug, quantity 1) wherever the examples name them, so expectations
//   can spell them.
// - Ids: every call gets a fresh `external_id` (and a snapshot a fresh `location_id`), because
//   suites share accounts and databases; pass one in the overrides to pin it.
// - Time: every timestamp is re-laid on one timeline, `at(minutes)` after the example order's
//   `placed_at`: the order is placed at(0) and updated at(1), shipped at(60), the return
//   requested at(120) and updated at(121), dispositions decided at(240)…, a snapshot is as of
//   at(0). An update a test sends with `at(n)` for a larger n is therefore newer by construction.
//
// Test-only: exported as `@oisr/contract/fixtures`, never from the package's barrel, so product
// bundles do not carry it. Browser-safe like the rest of the package (Web Crypto for ids).
import type { components } from "./generated/schema.d.ts";
import { openapiDocument } from "./spec.ts";

type Schemas = components["schemas"];
export type OrderInput = Schemas["OrderInput"];
export type ShipmentInput = Schemas["ShipmentInput"];
export type ReturnInput = Schemas["ReturnInput"];
export type DispositionInput = Schemas["DispositionInput"];
export type InventorySnapshotInput = Schemas["InventorySnapshotInput"];
export type InventoryItemInput = Schemas["InventoryItemInput"];

/** A short identifier unique across a run (readable uniqueness helps when a test fails). */
export function uid(prefix: string): string {
  const bytes = crypto.getRandomValues(new Uint8Array(5));
  return `${prefix}-${Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("")}`;
}

/**
 * The first item of an ingest operation's named request-body example. It throws rather than
 * returning undefined so that a spec edit which drops an example fails every suite at once.
 */
function example(path: string, name: string, items: string): Record<string, unknown>[] {
  const steps = ["paths", path, "post", "requestBody", "content", "application/json", "examples", name];
  let node: unknown = openapiDocument;
  for (const step of [...steps, "value", items]) {
    node = (node as Record<string, unknown> | undefined)?.[step];
  }
  if (!Array.isArray(node) || node.length === 0) {
    throw new Error(`spec/openapi.yaml has no "${name}" example of POST ${path} with ${items}`);
  }
  return node as Record<string, unknown>[];
}

const [shopifyOrder] = example("/ingest/orders", "shopify", "orders") as [OrderInput];
const [upsShipment] = example("/ingest/shipments", "ups", "shipments") as [ShipmentInput];
const [rma] = example("/ingest/returns", "rma", "returns") as [ReturnInput];
const inspected = example("/ingest/returns/{return_id}/dispositions", "inspected", "dispositions");
const [nightly] = example("/ingest/inventory", "nightly", "snapshots") as [InventorySnapshotInput];

const BASE = Date.parse(shopifyOrder.placed_at);

/** A caller-side timestamp `minutes` after the example order's `placed_at` (at(0) is that instant). */
export function at(minutes: number): string {
  return new Date(BASE + minutes * 60_000).toISOString();
}

const LINE_IDS = new Map(shopifyOrder.lines.map((line, i) => [line.line_id, `L${i + 1}`]));

/** Renames the example's line ids to L1/L2 (throws on a line the example order does not have). */
function renamed(exampleId: string): string {
  const id = LINE_IDS.get(exampleId);
  if (!id) throw new Error(`the spec's examples name line ${exampleId}, which order #1042 lacks`);
  return id;
}

/** A deep copy, so a test that mutates a fixture's nested objects changes only its own. */
const copy: <T>(value: T) => T = (value) => structuredClone(value);

/** The spec's shopify example order #1042: every optional member set, lines L1 × 2 and L2 × 1. */
export function order(overrides: Partial<OrderInput> = {}): OrderInput {
  return {
    ...copy(shopifyOrder),
    external_id: uid("ORD"),
    placed_at: at(0),
    lines: shopifyOrder.lines.map((line) => ({ ...copy(line), line_id: renamed(line.line_id) })),
    source_updated_at: at(1),
    ...overrides,
  };
}

/** The spec's UPS example shipment of `orderRef`: every line of `order()` in full. */
export function shipment(orderRef: string, overrides: Partial<ShipmentInput> = {}): ShipmentInput {
  return {
    ...copy(upsShipment),
    external_id: uid("SHP"),
    order_id: orderRef,
    shipped_at: at(60),
    lines: upsShipment.lines.map((line) => ({ ...line, line_id: renamed(line.line_id) })),
    ...overrides,
  };
}

/** The spec's example RMA of `orderRef`, approved: one of each line of `order()`. */
export function returnOf(orderRef: string, overrides: Partial<ReturnInput> = {}): ReturnInput {
  return {
    ...copy(rma),
    external_id: uid("RMA"),
    order_id: orderRef,
    items: rma.items.map((item) => ({ ...item, line_id: renamed(item.line_id) })),
    requested_at: at(120),
    source_updated_at: at(121),
    ...overrides,
  };
}

/** The spec's example dispositions of `returnOf()`: L1 restocked, L2 disposed of. */
export function dispositions(): DispositionInput[] {
  return (inspected as DispositionInput[]).map((d, i) => ({
    ...copy(d),
    external_id: uid("DSP"),
    line_id: renamed(d.line_id),
    decided_at: at(240 + i),
  }));
}

/** The first of the spec's example dispositions (restock, like new), for `quantity` of `lineId`. */
export function disposition(
  lineId: string,
  quantity: number,
  overrides: Partial<DispositionInput> = {},
): DispositionInput {
  const [first] = inspected as [DispositionInput];
  return {
    ...copy(first),
    external_id: uid("DSP"),
    line_id: lineId,
    quantity,
    decided_at: at(240),
    ...overrides,
  };
}

/** The spec's nightly example snapshot: a full count of three SKUs at a fresh location. */
export function snapshot(overrides: Partial<InventorySnapshotInput> = {}): InventorySnapshotInput {
  return { ...copy(nightly), location_id: uid("WH"), as_of: at(0), ...overrides };
}
