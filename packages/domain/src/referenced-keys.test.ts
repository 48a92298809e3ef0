import { at } from "@oisr/contract/fixtures";
import { describe, expect, it } from "vitest";
import { applyBatch } from "./apply-batch.ts";
import type { IngestBodies } from "./input.ts";
import { MemoryState } from "./memory-state.ts";
import type { DomainContext, IngestKind, InventoryLevel, Order, Return, Shipment } from "./model.ts";
import { type BatchParams, type ReferencedKeys, referencedKeys } from "./referenced-keys.ts";
import {
  dispositionInput,
  orderInput,
  returnInput,
  shipmentInput,
  snapshot,
  testContext,
} from "./test-support.ts";

/** What the server does with the keys: a few indexed queries, following `relatedReturns`. */
function preload(full: MemoryState, keys: ReferencedKeys): MemoryState {
  const orders = new Map<string, Order>();
  const returns = new Map<string, Return>();
  const add = <T extends { id: string }>(into: Map<string, T>, value: T | undefined) => {
    if (value) into.set(value.id, value);
  };
  for (const ref of keys.orderRefs) {
    add(orders, full.orderById(ref));
    add(orders, full.orderByExternalId(ref));
  }
  for (const ref of keys.orderExternalIds) add(orders, full.orderByExternalId(ref));
  for (const ref of keys.returnRefs) {
    add(returns, full.returnById(ref));
    add(returns, full.returnByExternalId(ref));
  }
  if (keys.relatedReturns) {
    for (const r of [...returns.values()]) add(orders, full.orderById(r.order_id));
    for (const o of orders.values()) for (const r of full.returnsForOrder(o.id)) add(returns, r);
  }
  const shipments = keys.shipmentExternalIds.flatMap((e): Shipment[] => {
    const s = full.shipmentByExternalId(e);
    return s ? [s] : [];
  });
  const inventory: InventoryLevel[] = [
    ...keys.inventoryKeys.flatMap((k) => full.inventoryLevel(k.location_id, k.sku) ?? []),
    ...keys.inventoryLocations.flatMap((l) => full.inventoryLevelsAt(l)),
  ];
  return new MemoryState({
    orders: [...orders.values()],
    returns: [...returns.values()],
    shipments,
    inventory,
  });
}

type Step = { [K in IngestKind]: [K, IngestBodies[K], BatchParams?] }[IngestKind];

/** Returns of L1 only, so that SO-1's L2 is left for RMA-3 and for the disposition that must fail. */
const l1Only = { items: [{ line_id: "L1", quantity: 1, reason_code: "damaged" as const }] };
const skuA = { items: [{ sku: "SKU-A", on_hand: 10, available: 8, reserved: 2 }] };

const steps: Step[] = [
  [
    "orders",
    { orders: [orderInput(), orderInput({ external_id: "SO-2" }), orderInput({ external_id: "SO-3" })] },
  ],
  [
    "shipments",
    {
      shipments: [
        shipmentInput({ lines: [{ line_id: "L1", quantity: 1 }] }),
        shipmentInput({ external_id: "SH-2", order_id: "ord_2" }),
      ],
    },
  ],
  [
    "shipments",
    {
      shipments: [
        shipmentInput({ tracking_number: "T", lines: [{ line_id: "L1", quantity: 1 }] }),
        shipmentInput({ external_id: "SH-3", lines: [{ line_id: "L1", quantity: 5 }] }),
      ],
    },
  ],
  [
    "returns",
    {
      returns: [
        returnInput(l1Only),
        returnInput({ ...l1Only, external_id: "RMA-2", order_id: "SO-2", status: "approved" }),
      ],
    },
  ],
  [
    "returns",
    {
      returns: [
        returnInput({ external_id: "RMA-3", items: [{ line_id: "L2", quantity: 1, reason_code: "other" }] }),
      ],
    },
  ],
  [
    "returns",
    {
      returns: [
        returnInput({ ...l1Only, external_id: "RMA-2", order_id: "SO-1", source_updated_at: at(1440) }),
      ],
    },
  ],
  ["returns", { returns: [returnInput({ ...l1Only, order_id: "SO-3", source_updated_at: at(1440) })] }],
  ["dispositions", { dispositions: [dispositionInput({ external_id: "D1" })] }, { returnId: "RMA-1" }],
  [
    "dispositions",
    { dispositions: [dispositionInput({ external_id: "D1" }), dispositionInput({ line_id: "L2" })] },
    { returnId: "ret_1" },
  ],
  ["dispositions", { dispositions: [dispositionInput()] }, { returnId: "RMA-404" }],
  ["orders", { orders: [orderInput({ status: "cancelled", source_updated_at: at(2880) })] }],
  [
    "inventory",
    {
      snapshots: [
        snapshot(),
        snapshot({
          location_id: "WH-2",
          items: [
            { sku: "X", on_hand: 1, available: 1 },
            { sku: "Y", on_hand: 2, available: 2 },
          ],
        }),
      ],
    },
  ],
  [
    "inventory",
    {
      snapshots: [
        snapshot({
          location_id: "WH-2",
          mode: "full",
          as_of: at(1440),
          items: [{ sku: "X", on_hand: 3, available: 3 }],
        }),
        snapshot({ as_of: at(1440) }),
      ],
    },
  ],
];

describe("referencedKeys", () => {
  it("names exactly what each kind reads", () => {
    expect(
      referencedKeys("shipments", { shipments: [shipmentInput(), shipmentInput({ external_id: "SH-2" })] }),
    ).toEqual({
      orderRefs: ["SO-1"],
      orderExternalIds: [],
      shipmentExternalIds: ["SH-1", "SH-2"],
      returnRefs: [],
      relatedReturns: false,
      inventoryKeys: [],
      inventoryLocations: [],
    });
    expect(referencedKeys("returns", { returns: [returnInput()] })).toMatchObject({
      orderRefs: ["SO-1"],
      returnRefs: ["RMA-1"],
      relatedReturns: true,
    });
    expect(
      referencedKeys("dispositions", { dispositions: [dispositionInput()] }, { returnId: "RMA-1" }),
    ).toMatchObject({ returnRefs: ["RMA-1"], orderRefs: [] });
    expect(referencedKeys("orders", { orders: [orderInput(), orderInput()] })).toMatchObject({
      orderRefs: [],
      orderExternalIds: ["SO-1"],
    });
    expect(
      referencedKeys("inventory", {
        snapshots: [
          snapshot(skuA),
          snapshot({ location_id: "WH-2", mode: "full" }),
          snapshot({ location_id: "WH-2" }),
        ],
      }),
    ).toMatchObject({ inventoryKeys: [{ location_id: "WH-1", sku: "SKU-A" }], inventoryLocations: ["WH-2"] });
  });

  it("a state preloaded from the keys gives the same outcome as the full state, step by step", () => {
    const full = new MemoryState();
    const ids = testContext();
    const statuses: string[] = [];
    steps.forEach(([kind, body, params], step) => {
      const now = `2025-01-10T12:${String(step).padStart(2, "0")}:00Z`;
      // Both runs must mint the same ids: the second replays what the first drew.
      const drawn: string[] = [];
      const record: DomainContext = { now, newId: (p) => drawn[drawn.push(ids.newId(p)) - 1] ?? "" };
      const replay: DomainContext = { now, newId: () => drawn.shift() ?? "exhausted" };
      const expected = applyBatch(kind, full, body as never, record, params);
      const loaded = preload(full, referencedKeys(kind, body as never, params));
      const actual = applyBatch(kind, loaded, body as never, replay, params);
      expect(actual, `step ${step} (${kind})`).toEqual(expected);
      if (expected.status === "succeeded") full.apply(expected.changes);
      statuses.push(expected.status);
    });
    // The scenario is only meaningful if it exercised moves, failures and full snapshots.
    expect(statuses.map((s, i) => `${i}:${s}`).filter((s) => s.endsWith("failed"))).toEqual([
      "2:failed",
      "8:failed",
      "9:failed",
      "10:failed",
    ]);
    expect(full.returnByExternalId("RMA-2")?.order_id).toBe("ord_1");
    expect(full.inventoryLevel("WH-2", "Y")?.on_hand).toBe(0);
  });
});
