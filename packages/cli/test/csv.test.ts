import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { createClient } from "@oisr/sdk";
import { describe, expect, it } from "vitest";
import { order, runCli, useSystem } from "./harness.ts";

const system = useSystem();

const ORDER_COLUMNS =
  "external_id,source,currency,placed_at,source_updated_at,ship_to.name,ship_to.line1,ship_to.city,ship_to.country,metadata.channel,line_id,sku,line_name,quantity,unit_price";

describe("oisr ingest orders FILE.csv", () => {
  it("groups rows into orders and points failures at the offending row", async () => {
    const token = await system.token();
    const file = join(system.dir, "orders.csv");
    const order = (id: string) =>
      `${id},shop,EUR,2025-01-01T00:00:00Z,2025-01-01T00:00:00Z,"Lovelace, Ada",1 Main St,Berlin,DE,web`;
    await writeFile(
      file,
      [
        ORDER_COLUMNS,
        `${order("C-1")},1,SKU-1,"Mug ""large""",2,9.99`, // line 2
        `${order("C-1")},2,SKU-2,Plate,1,4.50`, // line 3
        `C-2,shop,EUR,2025-01-01T00:00:00Z,2025-01-01T00:00:00Z,Bob,2 High St,London,GB,,1,SKU-3,,1,3.00`, // line 4
        `${order("C-3")},1,SKU-1,,1,9.99`, // line 5
        `${order("C-3")},2,SKU-2,,lots,9.99`, // line 6: quantity is not an integer
        `${order("C-4")},1,SKU-9,,1,1.00`, // line 7
        `,,,,,,,,,,2,SKU-8,,3,1.00`, // line 8: no external_id
      ].join("\n"),
    );
    const report = join(system.dir, "orders-failures.jsonl");
    const run = await runCli(["ingest", "orders", file, "--report", report], { url: system.url, token });

    expect(run.code, run.stderr).toBe(1);
    const failures = (await readFile(report, "utf8"))
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(failures.map((f) => [f.line, f.pointer, f.code])).toEqual([
      [6, "/lines/1/quantity", "type"],
      [8, "", "missing_key"],
    ]);
    const client = createClient({ baseUrl: system.url, token });
    const c1 = await client.orders.get("C-1");
    expect(c1.ship_to.name).toBe("Lovelace, Ada");
    expect(c1.metadata).toEqual({ channel: "web" });
    expect(c1.lines.map((l) => [l.line_id, l.sku, l.name, l.quantity, l.unit_price])).toEqual([
      ["1", "SKU-1", 'Mug "large"', 2, "9.99"],
      ["2", "SKU-2", "Plate", 1, "4.50"],
    ]);
    expect((await client.orders.get("C-2")).metadata ?? {}).toEqual({});
    expect((await client.orders.get("C-4")).lines).toHaveLength(1);
  });
});

describe("oisr ingest inventory FILE.csv", () => {
  it("turns adjacent rows of one location and time into one snapshot", async () => {
    const token = await system.token();
    const file = join(system.dir, "inventory.csv");
    await writeFile(
      file,
      [
        "location_id,as_of,mode,sku,on_hand,available,reserved",
        "WH-1,2025-01-01T00:00:00Z,partial,SKU-1,10,8,2",
        "WH-1,2025-01-01T00:00:00Z,partial,SKU-2,5,5,",
        "WH-2,2025-01-01T00:00:00Z,full,SKU-1,-1,0,",
      ].join("\n"),
    );
    const run = await runCli(["ingest", "inventory", file], { url: system.url, token });
    expect(run.code, run.stderr).toBe(1);
    expect(run.stderr).toContain("line 4 /items/0/on_hand");
    const client = createClient({ baseUrl: system.url, token });
    const levels = await client.inventory.list({ location_id: "WH-1" });
    expect(levels.data.map((l) => [l.sku, l.on_hand, l.available]).sort()).toEqual([
      ["SKU-1", 10, 8],
      ["SKU-2", 5, 5],
    ]);
  });
});

async function failuresIn(report: string) {
  return (await readFile(report, "utf8"))
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l))
    .map((f) => [f.line, f.pointer, f.code]);
}

describe("oisr ingest shipments|returns|dispositions FILE.csv", () => {
  it("ships, returns and dispositions an order from CSV files, pointing failures at their rows", async () => {
    const token = await system.token();
    const client = createClient({ baseUrl: system.url, token });
    await client.orders.ingestAndWait([
      order(1, {
        external_id: "O-1",
        lines: [
          { line_id: "1", sku: "SKU-1", quantity: 2, unit_price: "9.99" },
          { line_id: "2", sku: "SKU-2", quantity: 1, unit_price: "4.50" },
        ],
      }),
    ]);

    // Shipments: one row per shipped line, grouped by external_id.
    const shipments = join(system.dir, "shipments.csv");
    await writeFile(
      shipments,
      [
        "external_id,order_id,carrier,service,tracking_number,shipped_at,location_id,line_id,quantity",
        "S-1,O-1,UPS,Ground,1Z999,2025-01-02T00:00:00Z,WH-1,1,2", // line 2
        "S-1,,,,,,,2,1", // line 3: shipment columns left empty after the first row
        "S-2,O-1,DHL,,,2025-01-02T00:00:00Z,,1,two", // line 4: quantity is not an integer
        "S-3,O-1,UPS,,,2025-01-02T00:00:00Z,,1,1", // line 5
        "S-3,O-1,DHL,,,2025-01-02T00:00:00Z,,2,1", // line 6: another carrier for the same shipment
        "S-4,NOPE,UPS,,,2025-01-02T00:00:00Z,,1,1", // line 7: no such order (a business rule)
      ].join("\n"),
    );
    const shipmentsReport = join(system.dir, "shipments-failures.jsonl");
    const shipped = await runCli(["ingest", "shipments", shipments, "--report", shipmentsReport], {
      url: system.url,
      token,
    });
    expect(shipped.code, shipped.stderr).toBe(1);
    expect(await failuresIn(shipmentsReport)).toEqual([
      [4, "/lines/0/quantity", "type"],
      [6, "/carrier", "inconsistent_shipment_field"],
      [7, "/order_id", "order_not_found"],
    ]);
    const o1 = await client.orders.get("O-1");
    expect(o1.status).toBe("shipped");
    expect(
      o1.shipments.map((s) => [s.external_id, s.carrier, s.service, s.tracking_number, s.lines]),
    ).toEqual([
      [
        "S-1",
        "UPS",
        "Ground",
        "1Z999",
        [
          { line_id: "1", quantity: 2 },
          { line_id: "2", quantity: 1 },
        ],
      ],
    ]);

    // Returns: one row per returned item, grouped by external_id (the RMA).
    const returns = join(system.dir, "returns.csv");
    await writeFile(
      returns,
      [
        "external_id,order_id,status,customer_note,requested_at,source_updated_at,tracking.carrier,tracking.tracking_number,line_id,sku,quantity,reason_code,item_note",
        'RMA-1,O-1,approved,"Too small, sadly",2025-01-03T00:00:00Z,2025-01-03T00:00:00Z,USPS,9400,1,SKU-1,1,size_or_fit,Needs L', // line 2
        'RMA-1,,,,,,,,2,SKU-2,1,damaged,"Chipped ""badly"""', // line 3
        "RMA-2,O-1,,,2025-01-03T00:00:00Z,2025-01-03T00:00:00Z,,,1,,1,bored,", // line 4: unknown reason code
      ].join("\n"),
    );
    const returnsReport = join(system.dir, "returns-failures.jsonl");
    const returned = await runCli(["ingest", "returns", returns, "--report", returnsReport], {
      url: system.url,
      token,
    });
    expect(returned.code, returned.stderr).toBe(1);
    expect(await failuresIn(returnsReport)).toEqual([[4, "/items/0/reason_code", "enum"]]);
    const rma1 = await client.returns.get("RMA-1");
    expect([rma1.status, rma1.customer_note, rma1.tracking]).toEqual([
      "approved",
      "Too small, sadly",
      { carrier: "USPS", tracking_number: "9400" },
    ]);
    expect(rma1.items.map((i) => [i.line_id, i.quantity, i.reason_code, i.note])).toEqual([
      ["1", 1, "size_or_fit", "Needs L"],
      ["2", 1, "damaged", 'Chipped "badly"'],
    ]);

    // Dispositions: one row per disposition, naming its return; sent per return.
    const dispositions = join(system.dir, "dispositions.csv");
    await writeFile(
      dispositions,
      [
        "return_id,external_id,line_id,quantity,outcome,condition,location_id,decided_at,note",
        "RMA-1,D-1,1,1,restock,like_new,WH-1,2025-01-05T00:00:00Z,", // line 2
        'RMA-1,D-2,2,1,dispose,damaged,WH-1,2025-01-05T00:00:00Z,"Chipped, not resellable"', // line 3
        "RMA-1,D-3,9,1,restock,,,2025-01-05T00:00:00Z,", // line 4: not an item of the return
        ",D-4,1,1,restock,,,2025-01-05T00:00:00Z,", // line 5: no return_id
        "RMA-404,D-5,1,1,restock,,,2025-01-05T00:00:00Z,", // line 6: no such return
      ].join("\n"),
    );
    const dispositionsReport = join(system.dir, "dispositions-failures.jsonl");
    const dispositioned = await runCli(
      ["ingest", "dispositions", dispositions, "--report", dispositionsReport],
      {
        url: system.url,
        token,
      },
    );
    expect(dispositioned.code, dispositioned.stderr).toBe(1);
    expect(await failuresIn(dispositionsReport)).toEqual([
      [4, "/line_id", "line_not_in_return"],
      [5, "/return_id", "missing_key"],
      [6, "", "return_not_found"],
    ]);
    const done = await client.returns.get("RMA-1");
    expect(done.status).toBe("completed");
    expect(done.dispositions.map((d) => [d.external_id, d.line_id, d.outcome, d.condition, d.note])).toEqual([
      ["D-1", "1", "restock", "like_new", null],
      ["D-2", "2", "dispose", "damaged", "Chipped, not resellable"],
    ]);
  });

  it("sends JSON Lines dispositions per return too", async () => {
    const token = await system.token();
    const client = createClient({ baseUrl: system.url, token });
    await client.orders.ingestAndWait([
      order(1, {
        external_id: "O-1",
        lines: [{ line_id: "1", sku: "SKU-1", quantity: 2, unit_price: "9.99" }],
      }),
    ]);
    await client.returns.ingestAndWait(
      ["RMA-A", "RMA-B"].map((rma) => ({
        external_id: rma,
        order_id: "O-1",
        requested_at: "2025-01-03T00:00:00Z",
        source_updated_at: "2025-01-03T00:00:00Z",
        items: [{ line_id: "1", quantity: 1, reason_code: "other" as const }],
      })),
    );
    const file = join(system.dir, "dispositions.jsonl");
    const line = (rma: string | undefined, id: string) =>
      JSON.stringify({
        ...(rma === undefined ? {} : { return_id: rma }),
        external_id: id,
        line_id: "1",
        quantity: 1,
        outcome: "restock",
        decided_at: "2025-01-05T00:00:00Z",
      });
    await writeFile(file, [line("RMA-A", "D-A"), line(undefined, "D-X"), line("RMA-B", "D-B")].join("\n"));
    const run = await runCli(["ingest", "dispositions", file], { url: system.url, token });
    expect(run.code, run.stderr).toBe(1);
    expect(run.stderr).toContain("line 2 /return_id missing_key");
    expect(JSON.parse(run.stdout)).toMatchObject({ batches: 2, succeeded: 2, failed: 1 });
    for (const [rma, id] of [
      ["RMA-A", "D-A"],
      ["RMA-B", "D-B"],
    ]) {
      const ret = await client.returns.get(rma as string);
      expect([ret.status, ret.dispositions.map((d) => d.external_id)]).toEqual(["completed", [id]]);
    }
  });
});
