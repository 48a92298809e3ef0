import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { createClient } from "@oisr/sdk";
import { describe, expect, it } from "vitest";
import { runCli, useSystem } from "./harness.ts";

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
