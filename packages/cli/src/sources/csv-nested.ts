// CSV for items with nested rows (orders and their lines, shipments and their lines, returns and
// their items): one row per nested element, the rows of one item adjacent and sharing
// `external_id`. The row columns a kind names go to the row's element; every other column belongs
// to the item: plain names (currency, carrier, …) or dotted paths (ship_to.city,
// tracking.carrier, metadata.channel). Item columns may be repeated on each row or left empty
// after the first; two different values for one item are an error.
import type { CsvRecord } from "./csv.ts";
import { type Group, integer, readCsvGroups, setPath } from "./csv-groups.ts";
import { invalid, type SourceEvent } from "./types.ts";

export interface NestedCsv {
  /** The item's array the rows make up: "lines", "items". */
  key: string;
  /** Row columns and the element field each goes to (`line_name` -> `name`). */
  rowColumns: Readonly<Record<string, string>>;
  /** Element fields read as integers. */
  integers: readonly string[];
  /** The item's name in error codes: "order" reports `inconsistent_order_field`. */
  noun: string;
}

function buildNested(spec: NestedCsv, group: Group): SourceEvent {
  const first = group.records[0] as CsvRecord;
  const itemFields: Record<string, string> = {};
  const elements: Record<string, unknown>[] = [];
  for (const record of group.records) {
    const element: Record<string, unknown> = {};
    for (const [column, value] of Object.entries(record.values)) {
      const field = spec.rowColumns[column];
      if (field) {
        element[field] = spec.integers.includes(field) ? integer(value) : value;
        continue;
      }
      const seen = itemFields[column];
      if (seen !== undefined && seen !== value) {
        return invalid(
          record.line,
          `inconsistent_${spec.noun}_field`,
          `"${column}" is "${value}" here but "${seen}" on line ${first.line} of the same ${spec.noun}`,
          group.bytes,
          `/${column.replaceAll(".", "/")}`,
        );
      }
      itemFields[column] = value;
    }
    elements.push(element);
  }
  const item: Record<string, unknown> = {};
  for (const [column, value] of Object.entries(itemFields)) setPath(item, column, value);
  item[spec.key] = elements;
  return {
    kind: "item",
    item,
    line: first.line,
    subLines: { key: spec.key, lines: group.records.map((r) => r.line) },
    bytes: group.bytes,
  };
}

export function readNestedCsv(path: string, spec: NestedCsv): AsyncGenerator<SourceEvent> {
  return readCsvGroups(
    path,
    (r) => r.values.external_id,
    (group) => buildNested(spec, group),
  );
}

/** Orders: one row per line: line_id, sku, line_name (-> name), quantity, unit_price. */
export const ORDERS_CSV: NestedCsv = {
  key: "lines",
  rowColumns: {
    line_id: "line_id",
    sku: "sku",
    line_name: "name",
    quantity: "quantity",
    unit_price: "unit_price",
  },
  integers: ["quantity"],
  noun: "order",
};

/** Shipments: one row per shipped line: line_id, quantity. */
export const SHIPMENTS_CSV: NestedCsv = {
  key: "lines",
  rowColumns: { line_id: "line_id", quantity: "quantity" },
  integers: ["quantity"],
  noun: "shipment",
};

/** Returns: one row per returned item: line_id, sku, quantity, reason_code, item_note (-> note). */
export const RETURNS_CSV: NestedCsv = {
  key: "items",
  rowColumns: {
    line_id: "line_id",
    sku: "sku",
    quantity: "quantity",
    reason_code: "reason_code",
    item_note: "note",
  },
  integers: ["quantity"],
  noun: "return",
};
