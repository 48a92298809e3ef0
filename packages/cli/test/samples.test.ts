// The sample files the README's quick start imports (examples/data): five valid orders each, as
// the CLI reads them, checked against the API's schema; and neither looks like another kind.
import { fileURLToPath } from "node:url";
import { openapiDocument } from "@oisr/contract";
import { describe, expect, it } from "vitest";
import { checkJsonLinesShape, checkKind } from "../src/ingest/preflight.ts";
import { createValidators } from "../src/ingest/validate.ts";
import { formatOf, openSource } from "../src/sources/open.ts";
import type { SourceEvent } from "../src/sources/types.ts";

const validators = createValidators(openapiDocument);

describe.each(["orders.jsonl", "orders.csv"])("examples/data/%s", (name) => {
  const path = fileURLToPath(new URL(`../../../examples/data/${name}`, import.meta.url));

  it("holds five valid orders, with distinct external ids", async () => {
    const events: SourceEvent[] = [];
    for await (const event of openSource("orders", formatOf(path), path)) events.push(event);
    expect(events.filter((e) => e.kind === "invalid")).toEqual([]);
    const items = events.flatMap((e) => (e.kind === "item" ? [e] : []));
    expect(items).toHaveLength(5);
    expect(items.flatMap((item) => validators.orders(item))).toEqual([]);
    expect(new Set(items.map((i) => i.item.external_id)).size).toBe(5);
  });

  it("passes the checks made before sending", async () => {
    if (formatOf(path) === "jsonl") await checkJsonLinesShape(path, "orders");
    await checkKind("orders", formatOf(path), path, validators);
  });
});
