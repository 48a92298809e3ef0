import { writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseCsvRecord, readCsv } from "./csv.ts";

describe("parseCsvRecord", () => {
  it.each([
    ["a,b,c", ["a", "b", "c"]],
    ['"a,1","b ""x""",', ["a,1", 'b "x"', ""]],
    ["", [""]],
    ['x,"open', undefined],
  ])("%j", (text, fields) => {
    expect(parseCsvRecord(text)).toEqual(fields);
  });
});

describe("readCsv", () => {
  it("keeps the starting line of records whose quoted fields span lines", async () => {
    const file = join(tmpdir(), `oisr-csv-${process.pid}.csv`);
    await writeFile(file, '\uFEFFa,b\r\n1,"two\r\nlines"\r\n\r\n3,4\r\n5\r\n');
    const records = [];
    for await (const r of readCsv(file)) records.push(r);
    expect(records.map((r) => ("values" in r ? [r.line, r.values] : [r.line, r.message]))).toEqual([
      [2, { a: "1", b: "two\nlines" }],
      [5, { a: "3", b: "4" }],
      [6, "expected 2 fields, found 1"],
    ]);
  });
});
