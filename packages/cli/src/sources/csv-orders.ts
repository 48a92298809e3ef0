// Orders CSV: one row per order line, rows of one order adjacent and sharing `external_id`.
// Line columns: line_id, sku, line_name, quantity, unit_price. Every other column belongs to the
// order: plain names (currency, placed_at, …) or dotted paths (ship_to.city, customer.email,
// totals.total, metadata.channel). Order columns may be repeated on each row or left empty after
// the first; two different values for one order are an error.
import type { CsvRecord } from "./csv.ts";
import { type Group, integer, readCsvGroups, setPath } from "./csv-groups.ts";
import { invalid, type SourceEvent } from "./types.ts";

const LINE_COLUMNS: Record<string, string> = {
  line_id: "line_id",
  sku: "sku",
  line_name: "name",
  quantity: "quantity",
  unit_price: "unit_price",
};

function buildOrder(group: Group): SourceEvent {
  const first = group.records[0] as CsvRecord;
  const orderFields: Record<string, string> = {};
  const lines: Record<string, unknown>[] = [];
  for (const record of group.records) {
    const line: Record<string, unknown> = {};
    for (const [column, value] of Object.entries(record.values)) {
      const lineField = LINE_COLUMNS[column];
      if (lineField) {
        line[lineField] = lineField === "quantity" ? integer(value) : value;
        continue;
      }
      const seen = orderFields[column];
      if (seen !== undefined && seen !== value) {
        return invalid(
          record.line,
          "inconsistent_order_field",
          `"${column}" is "${value}" here but "${seen}" on line ${first.line} of the same order`,
          group.bytes,
          `/${column.replaceAll(".", "/")}`,
        );
      }
      orderFields[column] = value;
    }
    lines.push(line);
  }
  const order: Record<string, unknown> = {};
  for (const [column, value] of Object.entries(orderFields)) setPath(order, column, value);
  order.lines = lines;
  return {
    kind: "item",
    item: order,
    line: first.line,
    subLines: { key: "lines", lines: group.records.map((r) => r.line) },
    bytes: group.bytes,
  };
}

export function readOrdersCsv(path: string): AsyncGenerator<SourceEvent> {
  return readCsvGroups(path, (r) => r.values.external_id, buildOrder);
}
